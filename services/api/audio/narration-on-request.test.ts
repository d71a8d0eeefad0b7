import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ArticleWords } from '../../narration/narration-text.ts';
import { InvalidSpeechRequest, type Synthesis, type SynthesisRequest } from '../../speech/synthesis.ts';
import { NarrationsOnRequest } from './narration-on-request.ts';
import { englishVoice } from '../../speech/voice.test-support.ts';

const voice = englishVoice;
const words = (overrides: Partial<ArticleWords> = {}): ArticleWords => ({
  title: 'Markets rally',
  summary: 'Shares rose.',
  content: 'Shares rose sharply on Monday.',
  aiSummary: 'Shares rose sharply.',
  language: 'en',
  ...overrides,
});

/** A synthesis that holds every request until `release()`, keyed by its text, and counts them. */
function heldSynthesis() {
  const requests: SynthesisRequest[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const synthesis: Pick<Synthesis, 'synthesize' | 'voiceFor'> = {
    voiceFor: async ({ language }) => {
      if (language !== 'en') throw new InvalidSpeechRequest('language', `no voice speaks ${language}`);
      return voice;
    },
    synthesize: async (request) => {
      requests.push(request);
      await released;
      return {
        audio: { key: `${request.text.length}.mp3`, contentType: 'audio/mpeg', size: 10, durationMs: 1_000 },
        format: 'mp3',
        voice,
        durationMs: 1_000,
        characters: request.text.length,
        cached: false,
      };
    },
  };
  return { synthesis, requests, release: () => release() };
}

/** The narrator's settings, as the API passes them. */
const narrationWith = (synthesis: Pick<Synthesis, 'synthesize' | 'voiceFor'>) => ({
  synthesis,
  audioAddress: (key: string) => `http://api.test/v1/audio/${key}`,
  format: 'mp3' as const,
  text: 'summary' as const,
  retry: { maxAttempts: 1, initialBackoffMs: 0, maxBackoffMs: 0 },
  defaultProvider: 'embedded',
  logger: pino({ level: 'silent' }),
});

function narrations(articles: Record<string, ArticleWords>, atOnce: number, waiting = 0) {
  const held = heldSynthesis();
  const onRequest = new NarrationsOnRequest({
    wordsOf: async (id) => articles[id] ?? null,
    atOnce,
    waiting,
    narration: narrationWith(held.synthesis),
  });
  return { onRequest, ...held };
}

describe('narrations on request', () => {
  it('narrates as the narrator does (headline and AI summary) and gives the stored key', async () => {
    const { onRequest, requests, release } = narrations({ art_1: words() }, 2);
    release();
    const text = 'Markets rally.\nShares rose sharply.';
    expect(await onRequest.narrate('art_1')).toEqual({ kind: 'narrated', audioKey: `${text.length}.mp3` });
    expect(requests.map((r) => [r.text, r.voiceId, r.format])).toEqual([[text, voice.id, 'mp3']]);
    expect(onRequest.inProgress).toBe(0);
  });

  it('makes one narration for requests of one article at once, and refuses more articles than it may', async () => {
    const { onRequest, requests, release } = narrations(
      { a: words(), b: words({ title: 'Other' }), c: words() },
      2,
    );
    const first = onRequest.narrate('a');
    const again = onRequest.narrate('a');
    const second = onRequest.narrate('b');
    expect(again).toBe(first);
    expect(onRequest.narrate('c')).toBeNull();
    expect(onRequest.inProgress).toBe(2);
    release();
    await Promise.all([first, second]);
    expect(requests).toHaveLength(2);
    // the slots are free again
    expect(await onRequest.narrate('c')).toMatchObject({ kind: 'narrated' });
  });

  it('lets a few more requests wait for a place, in the order they came, and refuses those beyond', async () => {
    const articles = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e'].map((id) => [id, words({ title: `Story ${id}` })]),
    );
    const { onRequest, requests, release } = narrations(articles, 2, 2);
    const asked = ['a', 'b', 'c', 'd'].map((id) => onRequest.narrate(id));
    expect(asked.every((p) => p !== null)).toBe(true);
    const accepted = asked.map((p) => p!);
    expect(onRequest.narrate('e')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Two at once: the waiting two have not reached the provider yet.
    expect(requests.map((r) => r.text.split('\n')[0])).toEqual(['Story a.', 'Story b.']);
    release();
    expect((await Promise.all(accepted)).map((made) => made.kind)).toEqual([
      'narrated',
      'narrated',
      'narrated',
      'narrated',
    ]);
    expect(requests.map((r) => r.text.split('\n')[0])).toEqual([
      'Story a.',
      'Story b.',
      'Story c.',
      'Story d.',
    ]);
    expect(onRequest.inProgress).toBe(0);
    expect(onRequest.narrate('e')).not.toBeNull();
  });

  it('says why when nothing can be narrated, and unknown for an article not in the read model', async () => {
    const { onRequest, requests, release } = narrations(
      {
        hausa: words({ language: 'ha' }),
        empty: words({ title: '', summary: '', content: '', aiSummary: null }),
      },
      2,
    );
    release();
    expect(await onRequest.narrate('hausa')).toEqual({ kind: 'none', reason: 'no voice speaks ha' });
    expect(await onRequest.narrate('empty')).toEqual({ kind: 'none', reason: 'no text' });
    expect(await onRequest.narrate('missing')).toEqual({ kind: 'unknown' });
    expect(requests).toHaveLength(0);
  });

  it('frees its slot when the narration throws (the provider is down)', async () => {
    const failing = new NarrationsOnRequest({
      wordsOf: () => Promise.reject(new Error('ClickHouse is away')),
      atOnce: 1,
      narration: narrationWith(heldSynthesis().synthesis),
    });
    await expect(failing.narrate('a')).rejects.toThrow('ClickHouse is away');
    expect(failing.inProgress).toBe(0);
    expect(failing.narrate('b')).not.toBeNull();
    await failing.narrate('b')?.catch(() => undefined);
  });
});
