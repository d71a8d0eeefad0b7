// `npm run sources -- <command>`: the admin command for the source catalog.
//   list [--json]                       every source with its state
//   add --name N --feed-url U --category C --language L --country C [--site-url U] [--interval S]
//   update <id> [--name N] [--category C] [--language L] [--country C] [--site-url U] [--interval S]
//   activate <id> | deactivate <id>
//   import <file.opml> [--if-empty]     add/update every outline; bad outlines are listed, not fatal;
//                                       --if-empty: only when there are no sources yet (first start)
//   export [file.opml]                  to a file, or standard output
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { infrastructureEnv, loadConfig } from '../runtime/config.ts';
import { createKafka } from '../runtime/kafka/client.ts';
import { EventProducer } from '../runtime/kafka/producer.ts';
import { createSchemaRegistry, EventCodec } from '../runtime/kafka/registry.ts';
import { runProcess } from '../runtime/lifecycle.ts';
import { createLogger } from '../runtime/logger.ts';
import { toOpml } from './opml.ts';
import type { SourceInput } from './source.ts';
import { SourceNotFoundError, SourceRegistry } from './source-registry.ts';

const usage = `usage: npm run sources -- <list [--json] | add ... | update <id> ... | activate <id> | deactivate <id> | import <file> | export [file]>
  add/update options: --name --feed-url --site-url --category --language --country --interval <seconds>`;

class UsageError extends Error {}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    'feed-url': { type: 'string' },
    'site-url': { type: 'string' },
    category: { type: 'string' },
    language: { type: 'string' },
    country: { type: 'string' },
    interval: { type: 'string' },
    json: { type: 'boolean' },
    'if-empty': { type: 'boolean' },
  },
  strict: false,
});

const optionsAsInput = (): Partial<SourceInput> => {
  const input: Record<string, unknown> = {};
  if (typeof values.name === 'string') input.name = values.name;
  if (typeof values['feed-url'] === 'string') input.feed_url = values['feed-url'];
  if (typeof values['site-url'] === 'string') input.site_url = values['site-url'];
  if (typeof values.category === 'string') input.category = values.category;
  if (typeof values.language === 'string') input.language = values.language;
  if (typeof values.country === 'string') input.country = values.country;
  if (typeof values.interval === 'string') input.poll_interval_seconds = Number(values.interval);
  return input;
};

const say = (line: string) => process.stdout.write(`${line}\n`);

runProcess(async () => {
  const config = loadConfig(infrastructureEnv);
  const logger = createLogger('sources', config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const [command, argument] = positionals;
  if (!command) throw new UsageError(usage);

  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'sources-admin', logger });
  const codec = new EventCodec(createSchemaRegistry(config.SCHEMA_REGISTRY_URL));
  const producer = await EventProducer.connect(kafka, codec);
  const registry = new SourceRegistry({ kafka, codec, producer });
  try {
    switch (command) {
      case 'list': {
        const sources = await registry.list();
        if (values.json) say(JSON.stringify(sources, null, 2));
        else
          for (const s of sources)
            say(
              `${s.source_id}  ${s.active ? 'active  ' : 'inactive'}  ${s.category.padEnd(13)} ${s.language}/${s.country}  ${s.name}  <${s.feed_url}>`,
            );
        if (!values.json) say(`${sources.length} sources`);
        break;
      }
      case 'add': {
        const { source, change } = await registry.add(optionsAsInput() as SourceInput);
        say(`${change} ${source.source_id} ${source.name}`);
        break;
      }
      case 'update': {
        if (!argument) throw new UsageError('update needs a source id');
        const { source, change } = await registry.update(argument, optionsAsInput());
        say(`${change} ${source.source_id} ${source.name}`);
        break;
      }
      case 'activate':
      case 'deactivate': {
        if (!argument) throw new UsageError(`${command} needs a source id`);
        const { source, change } = await registry.setActive(argument, command === 'activate');
        say(`${change} ${source.source_id} ${source.name} (${source.active ? 'active' : 'inactive'})`);
        break;
      }
      case 'import': {
        if (!argument) throw new UsageError('import needs an OPML file');
        if (values['if-empty'] && (await registry.list()).length > 0) {
          say('sources exist already; nothing imported');
          break;
        }
        const { results, rejected } = await registry.importOpml(readFileSync(argument, 'utf8'));
        const count = (c: string) => results.filter((r) => r.change === c).length;
        for (const r of rejected) say(`rejected "${r.outline}": ${r.reason}`);
        say(
          `${count('added')} added, ${count('updated')} updated, ${count('unchanged')} unchanged, ${rejected.length} rejected`,
        );
        if (rejected.length > 0) process.exitCode = 1;
        break;
      }
      case 'export': {
        const opml = toOpml(await registry.list());
        if (argument) writeFileSync(argument, opml);
        else process.stdout.write(opml);
        break;
      }
      default:
        throw new UsageError(`unknown command "${command}"\n${usage}`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof SourceNotFoundError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof ZodError) {
      process.stderr.write(
        `invalid source: ${error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}\n`,
      );
      process.exitCode = 2;
    } else throw error;
  } finally {
    await producer.disconnect();
  }
});
