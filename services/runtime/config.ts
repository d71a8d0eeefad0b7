// Configuration comes only from environment variables and is validated once,
// at start, so a bad value stops the process with a message that names the
// variable instead of failing later somewhere deep in a Kafka callback.
//
// A setting's documentation lives on its schema: `.describe('…')` for what it does, and the value
// types below record what they accept (metadata `accepted`). docs/configuration.md is generated from
// the same schemas (config-docs.ts, `npm run generate:config-docs`), so it cannot drift from them.
import { z } from 'zod';

declare module 'zod' {
  interface GlobalMeta {
    /** What a setting accepts, in words: shown in docs/configuration.md. */
    accepted?: string;
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Settings whose values are never echoed back, neither in an error message nor in docs/configuration.md.
 * Known by name, so a new secret is covered by naming it like one.
 */
export const isSecretSetting = (name: string) => /PASSWORD|SECRET|_TOKEN$|_KEYS?$/.test(name);

export type EnvShape = Record<string, z.ZodType>;
export type ConfigOf<S extends EnvShape> = { [K in keyof S]: z.output<S[K]> };

export function loadConfig<S extends EnvShape>(
  shape: S,
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
): ConfigOf<S> {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const raw = env[name];
    // An empty string means "unset" so that `FOO=` in a compose file falls back to the default.
    const result = schema.safeParse(raw === '' ? undefined : raw);
    if (result.success) {
      config[name] = result.data;
    } else {
      const reason = result.error.issues.map((i) => i.message).join('; ');
      const shown =
        raw === undefined ? 'it is not set' : isSecretSetting(name) ? 'value hidden' : `got "${raw}"`;
      problems.push(`${name}: ${reason} (${shown})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as ConfigOf<S>;
}

// ---- value types shared by every service -------------------------------------------------

export const hostPort = /^[A-Za-z0-9.-]+:\d{1,5}$/;

export const brokerList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((s) => s.split(',').map((b) => b.trim()))
    .refine((list) => list.length > 0 && list.every((b) => hostPort.test(b)), {
      message: 'expected a comma-separated list of host:port',
    })
    .meta({ accepted: 'comma-separated host:port list' });

export const httpUrl = (fallback?: string) => {
  const base = z.string().refine(
    (s) => {
      try {
        const u = new URL(s);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'expected an http(s) URL' },
  );
  return (fallback === undefined ? base : base.default(fallback)).meta({ accepted: 'http(s) URL' });
};

export const redisUrl = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((s) => /^rediss?:\/\/[^\s]+$/.test(s), { message: 'expected redis://host:port[/db]' })
    .meta({ accepted: 'redis://host:port[/db] (rediss:// for TLS)' });

export const integer = (fallback: number, min: number, max: number) =>
  z
    .string()
    .default(String(fallback))
    .refine((s) => /^-?\d+$/.test(s.trim()), { message: 'expected an integer' })
    .transform((s) => Number.parseInt(s, 10))
    .refine((n) => n >= min && n <= max, { message: `expected an integer from ${min} to ${max}` })
    .meta({ accepted: `integer from ${min} to ${max}` });

/** An integer that may be left unset (undefined), for a setting whose absence means "work it out". */
export const optionalInteger = (min: number, max: number) =>
  z
    .string()
    .refine((s) => /^-?\d+$/.test(s.trim()), { message: 'expected an integer' })
    .transform((s) => Number.parseInt(s, 10))
    .refine((n) => n >= min && n <= max, { message: `expected an integer from ${min} to ${max}` })
    .optional()
    .meta({ accepted: `integer from ${min} to ${max}` });

export const decimal = (fallback: number, min: number, max: number) =>
  z
    .string()
    .default(String(fallback))
    .refine((s) => /^\d+(\.\d+)?$/.test(s.trim()), { message: 'expected a decimal number like 0.15' })
    .transform((s) => Number.parseFloat(s))
    .refine((n) => n >= min && n <= max, { message: `expected a number from ${min} to ${max}` })
    .meta({ accepted: `number from ${min} to ${max}` });

export const boolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'expected true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((s) => s === 'true' || s === '1')
    .meta({ accepted: 'true or false (also 1 or 0)' });

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z
    .enum(values, { message: `expected one of ${values.join(', ')}` })
    .default(fallback as never)
    .meta({ accepted: `one of ${values.join(', ')}` });

export const text = (fallback: string) => z.string().default(fallback).meta({ accepted: 'text' });

/** A comma-separated list; blanks dropped, each entry trimmed. */
export const commaList = (fallback = '') =>
  z
    .string()
    .default(fallback)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .meta({ accepted: 'comma-separated list' });

// ---- the infrastructure settings every process shares ------------------------------------

export const infrastructureEnv = {
  KAFKA_BROKERS: brokerList('127.0.0.1:9092').describe('The Kafka brokers to bootstrap from.'),
  KAFKA_CLIENT_ID: text('news-intelligence').describe(
    'Client id sent to Kafka; the services append their own name (`news-intelligence-poller`, ...).',
  ),
  TOPIC_PREFIX: z
    .string()
    .default('')
    .refine((s) => /^[A-Za-z0-9._-]{0,100}$/.test(s), {
      message: "expected up to 100 of Kafka's topic-name characters (A-Z a-z 0-9 . _ -)",
    })
    .meta({
      accepted: 'up to 100 characters of A-Z a-z 0-9 . _ - (empty: none)',
      description:
        'Namespace of every topic and consumer group (`staging.` makes `staging.news.alerts.v1`), so ' +
        'two environments or a benchmark can share one Kafka cluster without seeing each other. Set ' +
        'it alike for every process of one environment, provisioning included; the schema subjects ' +
        'follow the topic names.',
    }),
  SCHEMA_REGISTRY_URL: httpUrl('http://127.0.0.1:8081/apis/ccompat/v7').describe(
    'Any Confluent-compatible schema registry (the local stack runs Apicurio with its ccompat API).',
  ),
  CLICKHOUSE_URL: httpUrl('http://127.0.0.1:8123').describe("ClickHouse's HTTP interface."),
  CLICKHOUSE_USER: text('default').describe('ClickHouse user the services write and read as.'),
  CLICKHOUSE_PASSWORD: text('').describe("That user's password."),
  CLICKHOUSE_DATABASE: z
    .string()
    .default('news')
    .refine((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s), {
      message: 'expected an identifier ([A-Za-z_][A-Za-z0-9_]*)',
    })
    .meta({
      accepted: 'identifier (`[A-Za-z_][A-Za-z0-9_]*`)',
      description: 'Database of the read models; created if missing.',
    }),
  REDIS_URL: redisUrl('redis://127.0.0.1:6379').describe(
    'Redis, for ephemeral state only (dedupe, rate limits, locks, the answer cache).',
  ),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info').describe(
    'Logs are JSON lines (pino) on standard output.',
  ),
} satisfies EnvShape;

export type InfrastructureConfig = ConfigOf<typeof infrastructureEnv>;
