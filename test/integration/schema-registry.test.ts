// The registration step registers every schema with FULL_TRANSITIVE compatibility (raising subjects an
// earlier version set to BACKWARD), accepts a compatible evolution and rejects an incompatible one
// clearly, in either direction.
import { randomUUID } from 'node:crypto';
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import {
  createSchemaRegistry,
  registerSchema,
  SchemaCompatibilityError,
  subjectOf,
} from '../../services/runtime/kafka/registry.ts';
import { readSchemaFiles } from '../../services/runtime/events/schema-files.ts';
import { topicCatalog, topicNames } from '../../services/runtime/kafka/topics.ts';
import { stack } from './support/stack.ts';

const registry = createSchemaRegistry(stack.SCHEMA_REGISTRY_URL);

/** A throwaway record schema; each test evolves it under a subject of its own. */
const probe = (fields: { name: string; type: avro.Schema; default?: unknown }[]) =>
  avro.Type.forSchema({ type: 'record', name: 'Probe', namespace: 'news.test', fields });

const v1 = probe([
  { name: 'id', type: 'string' },
  { name: 'count', type: 'int' },
]);

describe('schema registration', () => {
  it('registered every catalogued topic under <topic>-value with FULL_TRANSITIVE compatibility', async () => {
    const withSchema = topicCatalog().filter((t) => t.schemaOf);
    for (const t of withSchema) {
      const response = await fetch(
        `${stack.SCHEMA_REGISTRY_URL}/config/${encodeURIComponent(subjectOf(t.name))}`,
      );
      expect(response.status, subjectOf(t.name)).toBe(200);
      expect(((await response.json()) as { compatibilityLevel: string }).compatibilityLevel).toBe(
        'FULL_TRANSITIVE',
      );
    }
  });

  it('raises a subject registered as BACKWARD (as before 2026-12-07) to FULL_TRANSITIVE', async () => {
    const subject = `test.compat.${randomUUID()}-value`;
    const config = `${stack.SCHEMA_REGISTRY_URL}/config/${encodeURIComponent(subject)}`;
    await registerSchema(registry, subject, v1, 'probe.avsc');
    const put = await fetch(config, {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ compatibility: 'BACKWARD' }),
    });
    expect(put.status).toBe(200);
    const v2 = probe([
      { name: 'id', type: 'string' },
      { name: 'count', type: 'int' },
      { name: 'note', type: ['null', 'string'], default: null },
    ]);
    await registerSchema(registry, subject, v2, 'probe.avsc');
    expect(((await (await fetch(config)).json()) as { compatibilityLevel: string }).compatibilityLevel).toBe(
      'FULL_TRANSITIVE',
    );
  });

  it('refuses a change older readers cannot read (a required field dropped), which BACKWARD let through', async () => {
    const subject = `test.compat.${randomUUID()}-value`;
    await registerSchema(registry, subject, v1, 'probe.avsc');
    const dropped = probe([{ name: 'id', type: 'string' }]);
    await expect(registerSchema(registry, subject, dropped, 'probe.avsc')).rejects.toThrow(
      /schema probe\.avsc is not FULL_TRANSITIVE compatible/,
    );
    // An enum symbol appended to an enum with a default is readable both ways.
    // (As the schema files write it: avsc's rendering of a Type leaves the enum's default out.)
    const colour = (symbols: string[]): avro.Schema => ({
      type: 'record',
      name: 'Painted',
      namespace: 'news.test',
      fields: [{ name: 'colour', type: { type: 'enum', name: 'Colour', symbols, default: 'unknown' } }],
    });
    const enumSubject = `test.compat.${randomUUID()}-value`;
    const first = await registerSchema(registry, enumSubject, colour(['red', 'unknown']), 'paint.avsc');
    expect(
      await registerSchema(registry, enumSubject, colour(['red', 'unknown', 'blue']), 'paint.avsc'),
    ).not.toBe(first);
  });

  it('holds each schema as its file writes it: timestamps as timestamp-millis, the docs kept', async () => {
    const files = new Map(readSchemaFiles().map((f) => [f.topic, f.schema]));
    for (const t of topicCatalog().filter((t) => t.schemaOf)) {
      const response = await fetch(
        `${stack.SCHEMA_REGISTRY_URL}/subjects/${encodeURIComponent(subjectOf(t.name))}/versions/latest`,
      );
      expect(response.status, subjectOf(t.name)).toBe(200);
      const { schema } = (await response.json()) as { schema: string };
      expect(JSON.parse(schema), subjectOf(t.name)).toEqual(files.get(t.schemaOf!));
    }
    // What a consumer decoding with the registry's schema is told about a time.
    const alerts = JSON.parse(
      (
        (await (
          await fetch(`${stack.SCHEMA_REGISTRY_URL}/subjects/${subjectOf(topicNames.alerts)}/versions/latest`)
        ).json()) as { schema: string }
      ).schema,
    ) as { fields: { name: string; type: unknown }[] };
    expect(alerts.fields.find((f) => f.name === 'occurred_at')?.type).toEqual({
      type: 'long',
      logicalType: 'timestamp-millis',
    });
  });

  it('accepts a compatible change and returns the same id for an unchanged schema', async () => {
    const subject = `test.compat.${randomUUID()}-value`;
    const first = await registerSchema(registry, subject, v1, 'probe.avsc');
    expect(await registerSchema(registry, subject, v1, 'probe.avsc')).toBe(first);
    const v2 = probe([
      { name: 'id', type: 'string' },
      { name: 'count', type: 'int' },
      { name: 'note', type: ['null', 'string'], default: null },
    ]);
    expect(await registerSchema(registry, subject, v2, 'probe.avsc')).not.toBe(first);
  });

  it('registers the same new subject from several provisioners at once, each getting the one id', async () => {
    // Each finds the subject without its compatibility setting and creates it; all but one are refused
    // with 409 "rule ... already exists", which is no incompatibility.
    for (let round = 0; round < 10; round++) {
      const subject = `test.concurrent.${randomUUID()}-value`;
      const ids = await Promise.all(
        Array.from({ length: 8 }, () => registerSchema(registry, subject, v1, 'probe.avsc')),
      );
      expect(new Set(ids).size).toBe(1);
    }
  });

  it('rejects an incompatible change with a message naming the file and subject', async () => {
    const subject = `test.compat.${randomUUID()}-value`;
    await registerSchema(registry, subject, v1, 'probe.avsc');
    const incompatible = probe([
      { name: 'id', type: 'string' },
      { name: 'count', type: 'string' }, // int -> string cannot read old data
      { name: 'required_without_default', type: 'long' },
    ]);
    const attempt = registerSchema(registry, subject, incompatible, 'probe.avsc');
    await expect(attempt).rejects.toBeInstanceOf(SchemaCompatibilityError);
    await expect(registerSchema(registry, subject, incompatible, 'probe.avsc')).rejects.toThrow(
      new RegExp(
        `schema probe.avsc is not FULL_TRANSITIVE compatible with the versions registered under ${subject.replace(/\./g, '\\.')}`,
      ),
    );
  });
});
