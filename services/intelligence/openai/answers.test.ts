import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { sampleFromSchema, type JsonSchema } from '../../../test/support/chat-completions-server.ts';
import { answerFormats, checkAnswer, educationAnswer, enrichmentAnswer, summaryAnswer } from './answers.ts';

const schemas: Record<string, z.ZodType> = {
  enrich: enrichmentAnswer,
  summarize: summaryAnswer,
  educate: educationAnswer,
};

/** OpenAI's strict mode: every object closed and every property required. */
function openObjects(schema: JsonSchema, path = '$'): string[] {
  const problems: string[] = [];
  if (schema.type === 'object') {
    const keys = Object.keys(schema.properties ?? {});
    if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties`);
    if (JSON.stringify([...(schema.required as string[])].sort()) !== JSON.stringify(keys.sort())) {
      problems.push(`${path}: required`);
    }
  }
  for (const [key, child] of Object.entries(schema.properties ?? {}))
    problems.push(...openObjects(child, `${path}.${key}`));
  if (schema.items) problems.push(...openObjects(schema.items, `${path}[]`));
  for (const branch of schema.anyOf ?? []) problems.push(...openObjects(branch, path));
  return problems;
}

describe.each(Object.entries(answerFormats))('the %s answer format', (operation, format) => {
  const schema = format.json_schema.schema as JsonSchema;

  it('is a strict JSON schema with closed objects', () => {
    expect(format.json_schema.strict).toBe(true);
    expect(openObjects(schema)).toEqual([]);
  });

  it('accepts what a server following the schema answers', () => {
    const sample = JSON.stringify(sampleFromSchema(schema));
    expect(checkAnswer(schemas[operation]!, sample)).toMatchObject({ ok: true });
  });
});

describe('checkAnswer', () => {
  it('names the path and the problem of each mismatch', () => {
    const result = checkAnswer(summaryAnswer, JSON.stringify({ summary: 42 }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/^the answer does not match the schema: summary: /);
  });
});
