// Avro encoding and decoding in the Confluent wire format (magic byte 0, a
// 4-byte big-endian schema id, the Avro body), through the schema registry.
// Producers encode with our schema's registered id; consumers decode with the
// writer's schema from the registry resolved into our (reader) schema, which is
// how compatible evolution stays invisible to handlers.
//
// Every subject is FULL_TRANSITIVE: a new version must read everything written before (BACKWARD) and be
// readable by every older version (FORWARD), because downstream teams pin a reader schema and upgrade on
// their own schedule. BACKWARD alone let a producer drop a field older readers require. Subjects an
// earlier version set to BACKWARD are raised to FULL_TRANSITIVE when a schema is next registered.
import avro from 'avsc';
import { SchemaRegistry, SchemaType, COMPATIBILITY } from '@kafkajs/confluent-schema-registry';
import { PoisonMessageError } from './errors.ts';
import { topicCatalog, type TopicSpec } from './topics.ts';
import { readSchemaFiles } from '../events/schema-files.ts';

const MAGIC_BYTE = 0;
const HEADER_LENGTH = 5;

export const subjectOf = (topic: string) => `${topic}-value`;

/** The compatibility every subject is registered with (see the top of the file). */
export const subjectCompatibility = COMPATIBILITY.FULL_TRANSITIVE;

/** Where each client made here talks to: the library keeps its config endpoint private. */
const registryUrls = new WeakMap<SchemaRegistry, string>();

export function createSchemaRegistry(url: string): SchemaRegistry {
  const registry = new SchemaRegistry({ host: url, clientId: 'news-intelligence', retry: { retries: 3 } });
  registryUrls.set(registry, url.replace(/\/+$/, ''));
  return registry;
}

/** Raises a subject this service registered as BACKWARD (before 2026-12-07) to subjectCompatibility. */
async function raiseCompatibility(registry: SchemaRegistry, subject: string): Promise<void> {
  const url = registryUrls.get(registry);
  if (!url) throw new Error(`cannot change the compatibility of ${subject}: registry client not made here`);
  const response = await fetch(`${url}/config/${encodeURIComponent(subject)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: subjectCompatibility }),
  });
  if (!response.ok)
    throw new Error(
      `setting ${subject} to ${subjectCompatibility} failed: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`,
    );
}

/** The library's refusal when the subject is set to what this service registered with before. */
const isEarlierSetting = (error: unknown) =>
  new RegExp(`does not match the configuration \\(${subjectCompatibility} != BACKWARD\\)`).test(
    (error as Error).message,
  );

export class SchemaCompatibilityError extends Error {
  constructor(
    readonly subject: string,
    readonly file: string,
    detail: string,
  ) {
    super(
      `schema ${file} is not ${subjectCompatibility} compatible with the versions registered under ${subject}: ${detail}. ` +
        'Give new fields a default, remove only fields that have one, append enum symbols only (the enum has a default), or publish a new .v2 topic.',
    );
    this.name = 'SchemaCompatibilityError';
  }
}

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;

/** The local (reader) Avro type of every topic that has a schema, retry topics included. */
export function localTypes(catalog: readonly TopicSpec[] = topicCatalog()): Map<string, LocalType> {
  const files = new Map(readSchemaFiles().map((s) => [s.topic, s]));
  const types = new Map<string, LocalType>();
  for (const spec of catalog) {
    if (!spec.schemaOf) continue;
    const file = files.get(spec.schemaOf);
    if (!file)
      throw new Error(`topic ${spec.name} needs schemas/${spec.schemaOf}.avsc, which does not exist`);
    const definition = file.schema as avro.Schema;
    types.set(spec.name, { type: avro.Type.forSchema(definition), file: file.file, definition });
  }
  return types;
}

export interface LocalType {
  type: avro.Type;
  file: string;
  /** The schema as its file writes it: what the registry is given (see registerSchema). */
  definition?: avro.Schema;
}

/**
 * Registers every topic's schema under `<topic>-value` with FULL_TRANSITIVE
 * compatibility. Idempotent: an unchanged schema returns its existing id.
 */
export async function registerSchemas(
  registry: SchemaRegistry,
  types: Map<string, LocalType> = localTypes(),
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [topic, { type, file, definition }] of types) {
    ids.set(topic, await registerSchema(registry, subjectOf(topic), definition ?? type, file));
  }
  return ids;
}

/**
 * Two provisioners starting at once (two deploys, a test run beside the demo) both find the subject
 * without its compatibility setting and both set it. The registry then refuses one of them with 409 "A
 * rule named 'COMPATIBILITY' already exists", or the client, reading the setting back while the other's
 * is half made, reports "Compatibility does not match the configuration (FULL_TRANSITIVE != NONE)". Neither is
 * an incompatible schema: asked again a moment later, the setting is there.
 */
const isConcurrentSetting = (error: unknown) =>
  (statusOf(error) === 409 && /rule named .* already exists/i.test((error as Error).message)) ||
  /does not match the configuration/i.test((error as Error).message);

const settingAttempts = 4;

/** The text a schema is registered and looked up by. */
function schemaText(schema: avro.Type | avro.Schema): string {
  return JSON.stringify(
    avro.Type.isType(schema) ? (schema as avro.Type).schema({ exportAttrs: true }) : schema,
  );
}

/**
 * Registers `schema` under `subject`. Give the schema as its file writes it: avsc's own rendering of a
 * Type drops what avsc was not told to read (`logicalType: timestamp-millis` on every time, the record's
 * `doc`), and consumers decode with what the registry holds: a Java or Python reader, or a sink, would
 * see plain longs where the contract says timestamps.
 */
export async function registerSchema(
  registry: SchemaRegistry,
  subject: string,
  schema: avro.Type | avro.Schema,
  file: string,
  attempt = 1,
): Promise<number> {
  const text = schemaText(schema);
  try {
    const { id } = await registry.register(
      { type: SchemaType.AVRO, schema: text },
      { subject, compatibility: subjectCompatibility },
    );
    return id;
  } catch (error) {
    if (isEarlierSetting(error) && attempt < settingAttempts) {
      await raiseCompatibility(registry, subject);
      return registerSchema(registry, subject, schema, file, attempt + 1);
    }
    if (isConcurrentSetting(error) && attempt < settingAttempts) {
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      return registerSchema(registry, subject, schema, file, attempt + 1);
    }
    if (statusOf(error) === 409) throw new SchemaCompatibilityError(subject, file, (error as Error).message);
    throw new Error(`registering ${file} under ${subject} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function describeInvalid(type: avro.Type, value: unknown): string {
  const problems: string[] = [];
  type.isValid(value, {
    errorHook: (path, any, t) => {
      if (problems.length < 5)
        problems.push(
          `${path.join('.') || '(root)'}: expected ${t.typeName}, got ${JSON.stringify(any) ?? 'undefined'}`,
        );
    },
  });
  return problems.join('; ');
}

/** Where values are encoded, grown when one does not fit; encoding is synchronous, so one suffices. */
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * The header and the Avro body, written into the scratch buffer and copied out once: Type.toBuffer and
 * Buffer.concat made two copies and a header buffer per event (every article and poll record).
 */
function framed(type: avro.Type, id: number, value: unknown): Buffer {
  let end = -1;
  while (end < 0) {
    scratch.writeUInt8(MAGIC_BYTE, 0);
    scratch.writeInt32BE(id, 1);
    // avsc: the end of what was written, or minus the bytes that did not fit.
    end = type.encode(value, scratch, HEADER_LENGTH);
    if (end < 0) scratch = Buffer.allocUnsafe(2 * (scratch.length - end));
  }
  const message = Buffer.allocUnsafe(end);
  scratch.copy(message, 0, 0, end);
  return message;
}

export class EventCodec {
  private readonly writerIds = new Map<string, number>();
  private readonly resolvers = new Map<string, avro.Resolver | 'same'>();

  constructor(
    private readonly registry: SchemaRegistry,
    private readonly types: Map<string, LocalType> = localTypes(),
  ) {}

  /** Whether this codec knows the schema of `topic`. */
  knows(topic: string): boolean {
    return this.types.has(topic);
  }

  /** The schema this codec writes `topic` with (the topic catalog's). */
  localType(topic: string): avro.Type {
    return this.typeOf(topic);
  }

  /** The registry id of localType(topic), once this codec has encoded an event of `topic`. */
  writerIdOf(topic: string): number | undefined {
    return this.writerIds.get(topic);
  }

  private typeOf(topic: string): avro.Type {
    const entry = this.types.get(topic);
    if (!entry) throw new Error(`topic ${topic} has no schema in the topic catalog`);
    return entry.type;
  }

  /** Encodes a value for `topic`; throws an error naming the invalid fields. */
  async encode(topic: string, value: unknown): Promise<Buffer> {
    const type = this.typeOf(topic);
    const id = this.writerIds.get(topic) ?? (await this.writerId(topic, type, value));
    // avsc checks every value as it writes it (a string's type, an int's range, a union's branch) and
    // throws on the first that does not fit, so an event is checked once, not walked first by isValid
    // as well (a tenth of the cost of encoding, on every event); the error then names every bad field.
    try {
      return framed(type, id, value);
    } catch (error) {
      throw new Error(`invalid ${topic} event: ${describeInvalid(type, value) || (error as Error).message}`);
    }
  }

  /** The registered id of the topic's schema, looked up once (an invalid first event is refused first). */
  private async writerId(topic: string, type: avro.Type, value: unknown): Promise<number> {
    if (!type.isValid(value)) {
      throw new Error(`invalid ${topic} event: ${describeInvalid(type, value)}`);
    }
    const entry = this.types.get(topic)!;
    let id: number;
    try {
      id = await this.registry.getRegistryIdBySchema(subjectOf(topic), {
        type: SchemaType.AVRO,
        schema: schemaText(entry.definition ?? type),
      });
    } catch (error) {
      throw new Error(
        `schema ${entry.file} is not registered under ${subjectOf(topic)} (run \`npm run provision\`): ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.writerIds.set(topic, id);
    return id;
  }

  /**
   * Decodes a message value of `topic` into our reader schema. A null value is
   * a tombstone and decodes to null. Undecodable bytes are a PoisonMessageError;
   * a registry that cannot be reached is an ordinary (retryable) error.
   */
  async decode(topic: string, buffer: Buffer | null): Promise<unknown> {
    if (buffer === null) return null;
    const reader = this.typeOf(topic);
    if (buffer.length < HEADER_LENGTH || buffer.readUInt8(0) !== MAGIC_BYTE) {
      throw new PoisonMessageError(
        `value is not in the Confluent wire format (${buffer.length} bytes, first byte ${buffer[0] ?? 'none'})`,
      );
    }
    const id = buffer.readInt32BE(1);
    const resolverKey = `${topic}#${id}`;
    let resolver = this.resolvers.get(resolverKey);
    if (resolver === undefined) {
      let writerSchema: avro.Schema;
      try {
        const writer = (await this.registry.getSchema(id)) as avro.Type;
        writerSchema = writer.schema({ exportAttrs: true });
      } catch (error) {
        const status = statusOf(error);
        if (status === 404 || /not found/i.test((error as Error).message ?? '')) {
          throw new PoisonMessageError(`schema id ${id} is unknown to the registry`, { cause: error });
        }
        throw error;
      }
      const writer = avro.Type.forSchema(writerSchema);
      try {
        resolver = writer.equals(reader) ? 'same' : reader.createResolver(writer);
      } catch (error) {
        throw new PoisonMessageError(
          `writer schema id ${id} cannot be read as ${topic}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      this.resolvers.set(resolverKey, resolver);
    }
    try {
      const body = buffer.subarray(HEADER_LENGTH);
      return resolver === 'same' ? reader.fromBuffer(body) : reader.fromBuffer(body, resolver);
    } catch (error) {
      throw new PoisonMessageError(
        `Avro body does not decode with schema id ${id}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
}
