// `npm run clients -- <command>`: the admin command for tenants and API clients.
// A key or secret is printed once, when issued, and exists nowhere else: the
// topic holds its hash, nothing logs it, and no error message carries it.
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { infrastructureEnv, loadConfig } from '../runtime/config.ts';
import type { Client } from '../runtime/events/types.generated.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { runProcess } from '../runtime/lifecycle.ts';
import { createLogger } from '../runtime/logger.ts';
import { describeClient, type PlanInput } from './client.ts';
import {
  ClientNotFoundError,
  ClientRegistry,
  ClientRevokedError,
  kafkaClientStore,
  TenantNotFoundError,
  type CredentialChoice,
} from './client-registry.ts';
import { knownScopes } from './plans.ts';

const usage = `usage: npm run clients -- <command> [options]
  create-tenant --name NAME [--client-name NAME] [plan and scope options] [--credentials key|secret|both]
  create-client --tenant TENANT_ID --name NAME [plan and scope options] [--credentials key|secret|both]
  issue-key <client-id>        issue an API key; replaces (rotates) the current one   (alias: rotate-key)
  issue-secret <client-id>     issue an OAuth client secret; replaces the current one (alias: rotate-secret)
  revoke <client-id>           revoke every credential of the client, for good
  set-plan <client-id> <essentials|professional|enterprise> [limit options]
  set-scopes <client-id> <scope,scope,...>
  list [--tenant TENANT_ID] [--json]
plan and scope options:
  --plan essentials|professional|enterprise    (default essentials)
  --scopes s1,s2                               (default all: ${knownScopes.join(',')})
limit options (required --calls-per-hour for enterprise; others default to the plan's, unlimited for enterprise):
  --calls-per-hour N  --live-connections N  --alert-endpoints N  --added-sources N
--json prints machine-readable output (issued credentials included, still only once).`;

class UsageError extends Error {}

const commands = new Set([
  'create-tenant',
  'create-client',
  'issue-key',
  'rotate-key',
  'issue-secret',
  'rotate-secret',
  'revoke',
  'set-plan',
  'set-scopes',
  'list',
]);

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        'client-name': { type: 'string' },
        tenant: { type: 'string' },
        plan: { type: 'string' },
        scopes: { type: 'string' },
        'calls-per-hour': { type: 'string' },
        'live-connections': { type: 'string' },
        'alert-endpoints': { type: 'string' },
        'added-sources': { type: 'string' },
        credentials: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
}

type Values = ReturnType<typeof parseCommandLine>['values'];

/** The plan and limit options as a plan input. A limit that is not a number becomes NaN, which the schema refuses naming the option. */
function planFrom(values: Values, plan: string | undefined): PlanInput | undefined {
  const limit = (text: string | undefined) => (text === undefined ? null : Number(text.trim() || NaN));
  const limits = {
    calls_per_hour: limit(values['calls-per-hour']),
    live_connections: limit(values['live-connections']),
    alert_endpoints: limit(values['alert-endpoints']),
    added_sources: limit(values['added-sources']),
  };
  const anyLimit = Object.values(limits).some((v) => v !== null);
  if (plan === undefined && !anyLimit) return undefined;
  return { plan: (plan ?? 'essentials') as PlanInput['plan'], limits: anyLimit ? limits : null };
}

const scopesFrom = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

function credentialsFrom(text: string | undefined): CredentialChoice {
  switch (text ?? 'key') {
    case 'key':
      return { apiKey: true, clientSecret: false };
    case 'secret':
      return { apiKey: false, clientSecret: true };
    case 'both':
      return { apiKey: true, clientSecret: true };
    default:
      throw new UsageError(`--credentials must be key, secret or both (got "${text}")`);
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const warnOnce = () =>
  process.stderr.write(
    'Shown once: only a hash is stored, so it cannot be shown again. Keep it secret; if it is lost, issue a new one.\n',
  );

function printIssued(
  json: boolean,
  issued: { tenantId?: string; client: Client; apiKey: string | null; clientSecret: string | null },
  heading: string,
): void {
  const { client, apiKey, clientSecret } = issued;
  if (json) {
    say(
      JSON.stringify(
        { api_key: apiKey, client_secret: clientSecret, client: describeClient(client) },
        null,
        2,
      ),
    );
  } else {
    say(heading);
    say(`  tenant         ${client.tenant_id}`);
    say(`  client id      ${client.client_id}  (${client.name}, ${client.plan})`);
    if (apiKey) say(`  API key        ${apiKey}`);
    if (clientSecret) say(`  client secret  ${clientSecret}`);
  }
  if (apiKey || clientSecret) warnOnce();
}

function printList(clients: Client[], json: boolean): void {
  if (json) {
    say(JSON.stringify(clients.map(describeClient), null, 2));
    return;
  }
  for (const c of clients) {
    const limits = describeClient(c).limits;
    const state = c.revoked ? 'revoked' : 'active ';
    const key = c.api_key_prefix ? `${c.api_key_prefix}…` : '-'.padEnd(13);
    const secret = c.client_secret_hash ? 'secret' : '-     ';
    const scopes = c.scopes.length === knownScopes.length ? 'all scopes' : c.scopes.join(',');
    const perHour = `${limits.callsPerHour}/h`;
    say(
      `${c.client_id}  ${c.tenant_id}  ${state}  ${c.plan.padEnd(12)} ${perHour.padEnd(9)} ${key}  ${secret}  ${c.name}  [${scopes}]`,
    );
  }
  say(`${clients.length} clients`);
}

runProcess(async () => {
  const config = loadConfig(infrastructureEnv);
  const { positionals, values } = (() => {
    try {
      const parsed = parseCommandLine();
      const [command] = parsed.positionals;
      if (!command) throw new UsageError(usage);
      if (!commands.has(command)) throw new UsageError(`unknown command "${command}"\n${usage}`);
      return parsed;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
  })();
  const [command, first, second] = positionals;
  const json = values.json === true;

  const logger = createLogger('clients', config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'clients-admin', logger });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  const registry = new ClientRegistry({ store: kafkaClientStore({ kafka, codec, producer }) });
  const clientIdArgument = () => {
    if (!first) throw new UsageError(`${command} needs a client id\n${usage}`);
    return first;
  };
  try {
    switch (command) {
      case 'create-tenant': {
        if (values.name === undefined) throw new UsageError('create-tenant needs --name');
        const issued = await registry.createTenant(
          {
            name: values.name,
            clientName: values['client-name'],
            plan: planFrom(values, values.plan),
            scopes: scopesFrom(values.scopes),
          },
          credentialsFrom(values.credentials),
        );
        printIssued(json, issued, `created tenant ${issued.tenantId} with its first client`);
        break;
      }
      case 'create-client': {
        if (values.tenant === undefined) throw new UsageError('create-client needs --tenant');
        if (values.name === undefined) throw new UsageError('create-client needs --name');
        const issued = await registry.createClient(
          {
            tenant_id: values.tenant,
            name: values.name,
            plan: planFrom(values, values.plan),
            scopes: scopesFrom(values.scopes),
          },
          credentialsFrom(values.credentials),
        );
        printIssued(json, issued, `created client ${issued.client.client_id}`);
        break;
      }
      case 'issue-key':
      case 'rotate-key': {
        const { client, apiKey, rotated } = await registry.issueApiKey(clientIdArgument());
        printIssued(
          json,
          { client, apiKey, clientSecret: null },
          rotated ? 'rotated the API key (the previous one no longer works)' : 'issued an API key',
        );
        break;
      }
      case 'issue-secret':
      case 'rotate-secret': {
        const { client, clientSecret, rotated } = await registry.issueClientSecret(clientIdArgument());
        printIssued(
          json,
          { client, apiKey: null, clientSecret },
          rotated ? 'rotated the client secret (the previous one no longer works)' : 'issued a client secret',
        );
        break;
      }
      case 'revoke': {
        const { client, change } = await registry.revoke(clientIdArgument());
        if (json) say(JSON.stringify(describeClient(client), null, 2));
        else
          say(`${change === 'changed' ? 'revoked' : 'already revoked'} ${client.client_id} (${client.name})`);
        break;
      }
      case 'set-plan': {
        const clientId = clientIdArgument();
        if (!second) throw new UsageError(`set-plan needs a plan\n${usage}`);
        if (values.plan !== undefined)
          throw new UsageError('set-plan takes the plan as an argument, not --plan');
        const { client, change } = await registry.setPlan(clientId, planFrom(values, second)!);
        if (json) say(JSON.stringify(describeClient(client), null, 2));
        else {
          const limits = describeClient(client).limits;
          const show = (n: number | null) => (n === null ? 'unlimited' : String(n));
          say(
            `${change === 'changed' ? 'plan set' : 'unchanged'}: ${client.client_id} ${client.plan}, ` +
              `${limits.callsPerHour} calls/h, ${show(limits.liveConnections)} live connections, ` +
              `${show(limits.alertEndpoints)} alert endpoints, ${show(limits.addedSources)} added sources`,
          );
        }
        break;
      }
      case 'set-scopes': {
        const clientId = clientIdArgument();
        if (!second) throw new UsageError(`set-scopes needs a comma-separated list of scopes\n${usage}`);
        const { client, change } = await registry.setScopes(clientId, scopesFrom(second)!);
        if (json) say(JSON.stringify(describeClient(client), null, 2));
        else
          say(
            `${change === 'changed' ? 'scopes set' : 'unchanged'}: ${client.client_id} ${client.scopes.join(' ')}`,
          );
        break;
      }
      case 'list':
        printList(await registry.list({ tenantId: values.tenant }), json);
        break;
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ClientNotFoundError ||
      error instanceof TenantNotFoundError ||
      error instanceof ClientRevokedError
    ) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof ZodError) {
      process.stderr.write(
        `invalid input: ${error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}\n`,
      );
      process.exitCode = 2;
    } else throw error;
  } finally {
    await producer.disconnect();
  }
});
