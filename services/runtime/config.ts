// Configuration comes only from environment variables and is validated once,
// at start, so a bad value stops the process with a message that names the
// variable instead of failing later somewhere deep in a Kafka callback.
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose values must never be echoed back in an error message. */
const secretVariable = /PASSWORD|SECRET|TOKEN|_KEY$/;

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
        raw === undefined ? 'it is not set' : secretVariable.test(name) ? 'value hidden' : `got "${raw}"`;
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
    });

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
  return fallback === undefined ? base : base.default(fallback);
};

export const redisUrl = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((s) => /^rediss?:\/\/[^\s]+$/.test(s), { message: 'expected redis://host:port[/db]' });

export const integer = (fallback: number, min: number, max: number) =>
  z
    .string()
    .default(String(fallback))
    .refine((s) => /^-?\d+$/.test(s.trim()), { message: 'expected an integer' })
    .transform((s) => Number.parseInt(s, 10))
    .refine((n) => n >= min && n <= max, { message: `expected an integer from ${min} to ${max}` });

export const boolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'expected true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((s) => s === 'true' || s === '1');

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.enum(values, { message: `expected one of ${values.join(', ')}` }).default(fallback as never);

export const text = (fallback: string) => z.string().default(fallback);

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
    );

// ---- the infrastructure settings every process shares ------------------------------------

export const infrastructureEnv = {
  KAFKA_BROKERS: brokerList('127.0.0.1:9092'),
  KAFKA_CLIENT_ID: text('news-intelligence'),
  SCHEMA_REGISTRY_URL: httpUrl('http://127.0.0.1:8081/apis/ccompat/v7'),
  CLICKHOUSE_URL: httpUrl('http://127.0.0.1:8123'),
  CLICKHOUSE_USER: text('default'),
  CLICKHOUSE_PASSWORD: text(''),
  CLICKHOUSE_DATABASE: z
    .string()
    .default('news')
    .refine((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s), {
      message: 'expected an identifier ([A-Za-z_][A-Za-z0-9_]*)',
    }),
  REDIS_URL: redisUrl('redis://127.0.0.1:6379'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
} satisfies EnvShape;

export type InfrastructureConfig = ConfigOf<typeof infrastructureEnv>;
