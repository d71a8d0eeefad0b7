import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { SpeechRejectedError, SpeechUnavailableError } from '../speech/provider.ts';
import {
  InvalidSpeechRequest,
  type Synthesis,
  type SynthesisRequest,
  type SynthesizedAudio,
} from '../speech/synthesis.ts';
import { narrateArticle, type NarrateArticleDependencies } from './narrate-article.ts';
import type { ArticleWords } from './narration-text.ts';
import { englishVoice } from '../speech/voice.test-support.ts';

const voice = englishVoice;
const key = `${'b'.repeat(40)}.mp3`;
const article: ArticleWords = {
  title: 'Markets rally',
  summary: 'Shares rose.',
  content: 'Shares rose sharply on Monday.',
  aiSummary: 'Shares rose sharply.',
  language: 'en',
};

/** A synthesis that answers with `answers` in turn (an Error is thrown) and records the requests. */
function fakeSynthesis(...answers: (SynthesizedAudio | Error)[]) {
  const requests: SynthesisRequest[] = [];
  const synthesis: Pick<Synthesis, 'synthesize' | 'voiceFor'> = {
    voiceFor: async ({ language }) => {
      if (language !== 'en') throw new InvalidSpeechRequest('language', `no voice speaks ${language}`);
      return voice;
    },
    synthesize: async (request) => {
      requests.push(request);
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (answer instanceof Error) throw answer;
      return answer!;
    },
  };
  return { synthesis, requests };
}

const stored: SynthesizedAudio = {
  audio: { key, size: 1234, contentType: 'audio/mpeg', durationMs: 4_200 },
  format: 'mp3',
  voice,
  durationMs: 4_200,
  characters: 35,
  cached: false,
};

const deps = (synthesis: NarrateArticleDependencies['synthesis']): NarrateArticleDependencies => ({
  synthesis,
  audioAddress: (k) => `https://api.example/v1/audio/${k}`,
  format: 'mp3',
  text: 'summary',
  retry: { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 2 },
  defaultProvider: 'embedded',
  logger: pino({ level: 'silent' }),
  clock: () => 1_000,
});

describe('narrateArticle', () => {
  it('records the stored audio: key, unsigned address, voice, format, duration, characters', async () => {
    const { synthesis, requests } = fakeSynthesis(stored);
    const narrated = await narrateArticle('a1', article, deps(synthesis));
    expect(narrated).toEqual({
      article_id: 'a1',
      status: 'succeeded',
      failure_reason: null,
      audio_url: `https://api.example/v1/audio/${key}`,
      audio_key: key,
      voice: 'en-US-slt-hts',
      format: 'mp3',
      duration_ms: 4_200,
      characters: 35,
      provider: 'embedded',
      occurred_at: 1_000,
    });
    expect(requests[0]).toMatchObject({
      text: 'Markets rally.\nShares rose sharply.',
      voiceId: 'en-US-slt-hts',
      language: 'en',
      format: 'mp3',
    });
  });

  it('skips an article no voice speaks, and one without words, saying why', async () => {
    const { synthesis, requests } = fakeSynthesis(stored);
    expect(await narrateArticle('a2', { ...article, language: 'xh' }, deps(synthesis))).toMatchObject({
      status: 'skipped',
      failure_reason: 'no voice speaks xh',
      audio_url: null,
    });
    const empty = { title: '', summary: '', content: '', aiSummary: null, language: 'en' };
    expect(await narrateArticle('a3', empty, deps(synthesis))).toMatchObject({
      status: 'skipped',
      failure_reason: 'no text',
    });
    expect(requests).toHaveLength(0);
  });

  it('retries a failing synthesis, then records the failure with its reason', async () => {
    const { synthesis, requests } = fakeSynthesis(new Error('festival died'));
    const narrated = await narrateArticle('a4', article, deps(synthesis));
    expect(requests).toHaveLength(3);
    expect(narrated).toMatchObject({
      status: 'failed',
      voice: 'en-US-slt-hts',
      failure_reason: 'gave up after 3 attempts: Error: festival died',
    });
  });

  it('records a refused input at once, without retrying', async () => {
    const { synthesis, requests } = fakeSynthesis(new SpeechRejectedError('not audio'));
    expect(await narrateArticle('a5', article, deps(synthesis))).toMatchObject({
      status: 'failed',
      failure_reason: 'SpeechRejectedError: not audio',
    });
    expect(requests).toHaveLength(1);
  });

  it('lets an unavailable provider through to the consumer, which waits for it, recording nothing', async () => {
    const { synthesis } = fakeSynthesis(new SpeechUnavailableError('google is down'));
    await expect(narrateArticle('a6', article, deps(synthesis))).rejects.toBeInstanceOf(
      SpeechUnavailableError,
    );
  });
});
