import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { topicCatalog, topicNames } from '../kafka/topics.ts';
import { asyncApiDocument, asyncApiFile, packageVersion, renderAsyncApi } from './asyncapi.ts';

describe('the AsyncAPI document of the topics', () => {
  const document = asyncApiDocument('1.0.0');

  it('has a channel for every topic that carries Avro, with its schema as the message payload', () => {
    const withSchema = topicCatalog().filter((t) => t.schemaOf !== null);
    const addresses = Object.values(document.channels).map((c) => (c as { address: string }).address);
    expect(addresses.sort()).toEqual(withSchema.map((t) => t.name).sort());
    const alert = document.components.messages['Alert'] as { payload: { schema: { name: string } } };
    expect(alert.payload.schema.name).toBe('Alert');
    const enriched = Object.values(document.channels).find(
      (c) => (c as { address: string }).address === topicNames.articlesEnriched,
    ) as { messages: Record<string, { $ref: string }> };
    expect(Object.values(enriched.messages)[0]!.$ref).toBe('#/components/messages/ArticleEnriched');
  });

  it('says which topics are compacted', () => {
    const webhooks = Object.values(document.channels).find(
      (c) => (c as { address: string }).address === topicNames.webhooks,
    ) as { bindings: { kafka: { topicConfiguration: Record<string, unknown> } } };
    expect(webhooks.bindings.kafka.topicConfiguration['cleanup.policy']).toEqual(['compact']);
  });

  it("describes a namespace's topics, with the subjects they are registered under", () => {
    const staged = asyncApiDocument('1.0.0', topicCatalog(['5s'], 'staging.'));
    const channels = Object.values(staged.channels) as { address: string; description: string }[];
    expect(channels.every((c) => c.address.startsWith('staging.news.'))).toBe(true);
    const retry = channels.find((c) => c.address === 'staging.news.webhook-deliveries.v1.retry-5s')!;
    expect(retry.description).toContain('Subject staging.news.webhook-deliveries.v1.retry-5s-value');
  });

  it('is current in docs/asyncapi.json (npm run generate:asyncapi rewrites it)', () => {
    expect(JSON.parse(readFileSync(asyncApiFile, 'utf8'))).toEqual(
      JSON.parse(renderAsyncApi(packageVersion)),
    );
  });
});
