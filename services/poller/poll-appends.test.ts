// Polls' appends share produce requests, and a poll still learns of its own records' fate.
import { describe, expect, it } from 'vitest';
import { AppendBatcher, type RawRecord } from '../runtime/kafka/append-batcher.ts';
import type { EventCodec } from '../runtime/kafka/registry.ts';
import { PollAppends } from './poll-appends.ts';

/** Encodes a value as its JSON, so the test can read back what was appended. */
const jsonCodec: Pick<EventCodec, 'encode'> = {
  encode: async (_topic, value) => Buffer.from(JSON.stringify(value)),
};
const poll = (id: string) => ({ key: id, value: { source_id: id } as never });

describe('PollAppends', () => {
  it('sends what polls finishing together append in one produce request, each poll in its order', async () => {
    const requests: RawRecord[][] = [];
    const appends = new PollAppends(
      jsonCodec,
      new AppendBatcher(async (records) => void requests.push(records)),
    );
    await Promise.all([
      appends.send('news.articles.discovered.v1', [poll('a1'), poll('a2')]),
      appends.send('news.feed-polls.v1', [poll('p1')]),
    ]);
    expect(requests).toHaveLength(1);
    const [request] = requests as [RawRecord[]];
    expect(request.map((r) => r.key).sort()).toEqual(['a1', 'a2', 'p1']);
    expect(request.filter((r) => r.topic === 'news.articles.discovered.v1').map((r) => r.key)).toEqual([
      'a1',
      'a2',
    ]);
    expect(JSON.parse(request.find((r) => r.key === 'p1')!.value!.toString())).toEqual({ source_id: 'p1' });
  });

  it('fails the sends of a request the broker refused, so their polls release their claims', async () => {
    const appends = new PollAppends(
      jsonCodec,
      new AppendBatcher(async () => {
        throw new Error('broker down');
      }),
    );
    await expect(appends.send('news.feed-polls.v1', [poll('p1')])).rejects.toThrow('broker down');
  });

  it('appends nothing when an event does not encode', async () => {
    const requests: RawRecord[][] = [];
    const appends = new PollAppends(
      {
        encode: async (_topic, value) => {
          if ((value as { source_id: string }).source_id === 'bad') throw new Error('invalid event');
          return Buffer.from('ok');
        },
      },
      new AppendBatcher(async (records) => void requests.push(records)),
    );
    await expect(appends.send('news.feed-polls.v1', [poll('ok'), poll('bad')])).rejects.toThrow(
      'invalid event',
    );
    expect(requests).toEqual([]);
  });
});
