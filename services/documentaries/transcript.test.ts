// The transcript of a documentary assembled from real speech (espeak-ng, fast), and hand-made timelines
// for what speech would not produce (hours, markup in the text).
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeEspeak } from '../speech/embedded/espeak.ts';
import { durationMs, rmsDbfs } from '../speech/pcm.ts';
import type { Pcm } from '../speech/provider.ts';
import { assemble, type AssembledTimeline } from './assembly.ts';
import { parseWebVtt, transcriptJson, webVtt, WebVttError } from './transcript.ts';

const script = [
  {
    kind: 'intro' as const,
    title: 'Intro',
    articleIds: [],
    sentences: ['Good evening.', 'Here is the week in review.'],
  },
  {
    kind: 'story' as const,
    title: 'Rates',
    articleIds: ['a-1'],
    sentences: ['Rates rose by a quarter point & markets fell.', 'Analysts expect <more> to come.'],
  },
  { kind: 'outro' as const, title: 'Outro', articleIds: [], sentences: ['That is all for now.'] },
];

let pcm: Pcm;
let timeline: AssembledTimeline;

beforeAll(async () => {
  const segments = await Promise.all(
    script.map(async ({ sentences, ...segment }) => ({
      ...segment,
      sentences: await Promise.all(
        sentences.map(async (text) => ({ text, pcm: await synthesizeEspeak(text, 'gmw/en', 1) })),
      ),
    })),
  );
  ({ pcm, timeline } = assemble(segments));
});

const slice = (from: number, to: number): Pcm => ({
  sampleRate: pcm.sampleRate,
  samples: pcm.samples.subarray(
    Math.round((from * pcm.sampleRate) / 1000),
    Math.round((to * pcm.sampleRate) / 1000),
  ),
});

describe('webVtt', () => {
  it('gives one cue per sentence, in order, not overlapping, covering the audio', () => {
    const vtt = webVtt(timeline);
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    const cues = parseWebVtt(vtt);
    expect(cues.map((cue) => cue.text)).toEqual(script.flatMap((segment) => segment.sentences));
    for (let i = 1; i < cues.length; i++) expect(cues[i]!.startMs).toBeGreaterThanOrEqual(cues[i - 1]!.endMs);
    expect(cues[0]!.startMs).toBeLessThan(1000);
    expect(Math.abs(cues.at(-1)!.endMs - durationMs(pcm))).toBeLessThan(1000);
    // Each cue is where its speech is: sound inside, silence in the gaps between cues.
    for (const cue of cues) expect(rmsDbfs(slice(cue.startMs, cue.endMs))).toBeGreaterThan(-40);
    for (let i = 1; i < cues.length; i++) {
      expect(rmsDbfs(slice(cues[i - 1]!.endMs + 1, cues[i]!.startMs - 1))).toBe(-Infinity);
    }
  });

  it('escapes markup, keeps each cue on one line, and writes hours', () => {
    const made: AssembledTimeline = {
      durationMs: 3_725_000,
      segments: [
        {
          kind: 'story',
          title: 'S',
          articleIds: [],
          startMs: 0,
          endMs: 3_725_000,
          sentences: [
            { text: 'Fish & <chips> --> done', startMs: 0, endMs: 1500 },
            { text: 'Two\n\nlines', startMs: 3_723_004, endMs: 3_724_999 },
            { text: 'silent', startMs: 3_724_999, endMs: 3_724_999 },
          ],
        },
      ],
    };
    const vtt = webVtt(made);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nFish &amp; &lt;chips&gt; --&gt; done\n\n' +
        '01:02:03.004 --> 01:02:04.999\nTwo lines\n',
    );
    expect(parseWebVtt(vtt)).toEqual([
      { startMs: 0, endMs: 1500, text: 'Fish & <chips> --> done' },
      { startMs: 3_723_004, endMs: 3_724_999, text: 'Two lines' },
    ]);
  });
});

describe('parseWebVtt', () => {
  it('reads identifiers, settings, notes, CRLF, tags and character references', () => {
    const text =
      '\ufeffWEBVTT - a title\r\n\r\nNOTE made by hand\r\n\r\nintro-1\r\n01:02.500 --> 00:01:03.000 align:start\r\n' +
      '<v Narrator>Caf&eacute; &#233; &#xE9; &lt;b&gt;</v>\r\nsecond line\r\n';
    expect(parseWebVtt(text)).toEqual([
      { startMs: 62_500, endMs: 63_000, text: 'Caf&eacute; é é <b>\nsecond line' },
    ]);
  });

  it.each([
    ['no header', '00:00.000 --> 00:01.000\nHi\n', /first line/],
    ['a bad timestamp', 'WEBVTT\n\n00:00.00 --> 00:01.000\nHi\n', /line 3: "00:00.00" is not a timestamp/],
    ['sixty seconds', 'WEBVTT\n\n00:00:60.000 --> 00:01:01.000\nHi\n', /not a timestamp/],
    ['a cue ending before it starts', 'WEBVTT\n\n00:02.000 --> 00:01.000\nHi\n', /ends .* before it starts/],
    [
      'cues out of order',
      'WEBVTT\n\n00:02.000 --> 00:03.000\nA\n\n00:01.000 --> 00:04.000\nB\n',
      /before the one above/,
    ],
    ['a block with no timing', 'WEBVTT\n\njust text\nmore text\n', /neither a cue nor a NOTE/],
    [
      'two cues without a blank line',
      'WEBVTT\n\n00:01.000 --> 00:02.000\nA\n00:02.000 --> 00:03.000\nB\n',
      /-->/,
    ],
  ])('throws on %s', (_, text, message) => {
    expect(() => parseWebVtt(text)).toThrow(WebVttError);
    expect(() => parseWebVtt(text)).toThrow(message);
  });
});

describe('transcriptJson', () => {
  it('gives the segments, articles and sentences with their times, in snake_case', () => {
    const json = transcriptJson(timeline);
    expect(json.duration_ms).toBe(timeline.durationMs);
    expect(json.segments.map((s) => [s.kind, s.title, s.article_ids])).toEqual(
      script.map((s) => [s.kind, s.title, s.articleIds]),
    );
    json.segments.forEach((segment, s) => {
      expect(segment.start_ms).toBe(timeline.segments[s]!.startMs);
      expect(segment.end_ms).toBe(timeline.segments[s]!.endMs);
      expect(segment.sentences).toEqual(
        timeline.segments[s]!.sentences.map(({ text, startMs, endMs }) => ({
          text,
          start_ms: startMs,
          end_ms: endMs,
        })),
      );
    });
    // Served as JSON: nothing is lost on the way.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(Object.keys(json.segments[0]!.sentences[0]!)).toEqual(['text', 'start_ms', 'end_ms']);
  });
});
