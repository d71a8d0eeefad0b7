// Real speech (espeak-ng, fast), real ffmpeg and ffprobe: about five seconds in all.
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeAudio, probeAudio } from '../speech/audio-probe.ts';
import { synthesizeEspeak } from '../speech/embedded/espeak.ts';
import { encodeAudio } from '../speech/encoder.ts';
import { clippedShare, durationMs, trimSilence } from '../speech/pcm.ts';
import { SpeechUnavailableError, type Pcm } from '../speech/provider.ts';
import { interruptedFfmpeg } from '../../test/support/interrupted-ffmpeg.ts';
import {
  assemble,
  AssemblyError,
  chaptersOf,
  encodeWithChapters,
  escapeMetadata,
  ffmetadata,
  measureLoudness,
  normaliseLoudness,
  parseEbur128Summary,
  type AssembledTimeline,
  type SpokenSegment,
} from './assembly.ts';

const script: { kind: SpokenSegment['kind']; title: string; articleIds: string[]; sentences: string[] }[] = [
  {
    kind: 'intro',
    title: 'Harbours = news; #1 \\ intro',
    articleIds: [],
    sentences: ['This is a report on harbours.'],
  },
  {
    kind: 'story',
    title: 'The council budget',
    articleIds: ['a-1', 'a-2'],
    sentences: [
      'The council met on Tuesday to discuss the new budget.',
      'It includes money for roads, schools and the harbour.',
    ],
  },
  { kind: 'transition', title: 'Meanwhile', articleIds: [], sentences: ['Meanwhile, on the coast.'] },
  {
    kind: 'story',
    title: 'Storm damage, café closed',
    articleIds: ['a-3'],
    sentences: ['A storm damaged the pier last night.', 'Repairs will take a month.'],
  },
  { kind: 'outro', title: 'Goodbye', articleIds: [], sentences: ['That was the news. Goodbye.'] },
];

let segments: SpokenSegment[];
const timing = { sentencePauseMs: 350, segmentPauseMs: 900, edgeMs: 50 };

beforeAll(async () => {
  segments = await Promise.all(
    script.map(async ({ sentences, ...segment }) => ({
      ...segment,
      sentences: await Promise.all(
        sentences.map(async (text) => ({ text, pcm: await synthesizeEspeak(text, 'gmw/en', 1) })),
      ),
    })),
  );
});

const samplesOf = (pcm: Pcm, ms: number) => Math.round((pcm.sampleRate * ms) / 1000);
const msToSample = (pcm: Pcm, ms: number) => Math.round((ms * pcm.sampleRate) / 1000);

/** ffprobe's chapters and duration of an encoded file. */
function probeChapters(
  bytes: Uint8Array,
): Promise<{ chapters: { start_time: string; end_time: string; tags?: { title?: string } }[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffprobe', ['-v', 'error', '-of', 'json', '-show_chapters', '-i', 'pipe:0']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as never) : reject(new Error(`ffprobe ${code}`)),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(bytes);
  });
}

/** Integrated loudness and true peak as ffmpeg's other meter (loudnorm, JSON) finds them in a file. */
function loudnormOf(bytes: Uint8Array): Promise<{ lufs: number; truePeak: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', [
      ...['-hide_banner', '-nostats', '-i', 'pipe:0'],
      ...['-af', 'loudnorm=print_format=json', '-f', 'null', '-'],
    ]);
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const json = /\{[^{}]*"input_i"[^{}]*\}/.exec(log);
      if (!json) return reject(new Error(`no loudnorm report: ${log.slice(-300)}`));
      const report = JSON.parse(json[0]) as { input_i: string; input_tp: string };
      resolve({ lufs: Number(report.input_i), truePeak: Number(report.input_tp) });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(bytes);
  });
}

describe('assemble', () => {
  it('lays the trimmed sentences out with exactly the pauses asked for, and says where each one is', () => {
    const { pcm, timeline } = assemble(segments, timing);
    const trimmed = segments.map((segment) => segment.sentences.map((s) => trimSilence(s.pcm)));
    const speech = trimmed.flat().reduce((sum, piece) => sum + piece.samples.length, 0);
    const sentences = trimmed.flat().length;
    const expected =
      2 * samplesOf(pcm, timing.edgeMs) +
      speech +
      (segments.length - 1) * samplesOf(pcm, timing.segmentPauseMs) +
      (sentences - segments.length) * samplesOf(pcm, timing.sentencePauseMs);
    expect(pcm.samples.length).toBe(expected);
    expect(Math.abs(timeline.durationMs - durationMs(pcm))).toBeLessThanOrEqual(1);

    // Each sentence's span holds its own audio (the middle, away from the 5 ms fades) ...
    timeline.segments.forEach((segment, s) =>
      segment.sentences.forEach((sentence, i) => {
        const own = trimmed[s]![i]!.samples;
        const start = msToSample(pcm, sentence.startMs);
        expect(
          Math.abs(sentence.endMs - sentence.startMs - durationMs({ ...pcm, samples: own })),
        ).toBeLessThanOrEqual(1);
        const fade = samplesOf(pcm, 5) + 1;
        // Rounding to the millisecond may move the start by up to half a millisecond's samples.
        const slack = Math.ceil(pcm.sampleRate / 2000);
        const found = [...Array(2 * slack + 1).keys()].some((k) => {
          const offset = start - slack + k;
          const placed = pcm.samples.subarray(offset + fade, offset + own.length - fade);
          return Buffer.from(placed.buffer, placed.byteOffset, placed.byteLength).equals(
            Buffer.from(own.subarray(fade, own.length - fade).slice().buffer),
          );
        });
        expect(found, `"${sentence.text}" at ${sentence.startMs} ms`).toBe(true);
      }),
    );
    // ... and between two sentences there is nothing but silence, longer between segments.
    const sentenceList = timeline.segments.flatMap((segment, s) =>
      segment.sentences.map((x) => ({ ...x, s })),
    );
    for (let k = 1; k < sentenceList.length; k++) {
      const gapMs = sentenceList[k]!.startMs - sentenceList[k - 1]!.endMs;
      const pause =
        sentenceList[k]!.s === sentenceList[k - 1]!.s ? timing.sentencePauseMs : timing.segmentPauseMs;
      expect(Math.abs(gapMs - pause)).toBeLessThanOrEqual(1);
      // Millisecond times are within half a millisecond of the sample where speech ends or starts.
      const slack = Math.ceil(pcm.sampleRate / 2000);
      const quiet = pcm.samples.subarray(
        msToSample(pcm, sentenceList[k - 1]!.endMs) + slack,
        msToSample(pcm, sentenceList[k]!.startMs) - slack,
      );
      expect(quiet.length).toBeGreaterThan(samplesOf(pcm, pause) - 2 * slack - 2);
      expect(quiet.every((sample) => sample === 0)).toBe(true);
    }
  });

  it('tiles the programme with the segments, each holding its sentences and articles', () => {
    const { timeline } = assemble(segments, timing);
    expect(timeline.segments.map((s) => [s.kind, s.title, s.articleIds])).toEqual(
      script.map((s) => [s.kind, s.title, s.articleIds]),
    );
    expect(timeline.segments[0]!.startMs).toBe(0);
    expect(timeline.segments.at(-1)!.endMs).toBe(timeline.durationMs);
    timeline.segments.forEach((segment, s) => {
      if (s > 0) expect(segment.startMs).toBe(timeline.segments[s - 1]!.endMs);
      expect(segment.sentences.map((x) => x.text)).toEqual(script[s]!.sentences);
      expect(segment.startMs).toBeLessThanOrEqual(segment.sentences[0]!.startMs);
      expect(segment.endMs).toBeGreaterThanOrEqual(segment.sentences.at(-1)!.endMs);
      if (s > 0) {
        // The boundary is in the middle of the pause before the segment.
        const before = timeline.segments[s - 1]!.sentences.at(-1)!.endMs;
        expect(Math.abs(segment.startMs - before - timing.segmentPauseMs / 2)).toBeLessThanOrEqual(1);
      }
    });
  });

  it('keeps a silent sentence in the timeline without giving it time', () => {
    const rate = segments[0]!.sentences[0]!.pcm.sampleRate;
    const story = segments[1]!;
    const withSilence = {
      ...story,
      sentences: [
        { text: '...', pcm: { sampleRate: rate, samples: new Int16Array(5000) } },
        ...story.sentences,
      ],
    };
    const plain = assemble([story], timing);
    const { pcm, timeline } = assemble([withSilence], timing);
    expect(pcm.samples.length).toBe(plain.pcm.samples.length);
    const [silent, first] = timeline.segments[0]!.sentences;
    expect(silent).toEqual({ text: '...', startMs: first!.startMs, endMs: first!.startMs });
  });

  it('refuses sentences at another sample rate, saying which', () => {
    const odd = { sampleRate: 16_000, samples: new Int16Array(16_000).fill(1000) };
    const mixed = [
      segments[0]!,
      { ...segments[1]!, sentences: [...segments[1]!.sentences, { text: 'Odd.', pcm: odd }] },
    ];
    expect(() => assemble(mixed)).toThrow(AssemblyError);
    expect(() => assemble(mixed)).toThrow(
      /sentence 3 of segment 2 \(story "The council budget"\) is 16000 Hz .* 22050 Hz/,
    );
  });

  it('refuses a segment with nothing audible, no segments, and negative pauses', () => {
    const mute = {
      kind: 'transition' as const,
      title: 'Hush',
      articleIds: [],
      sentences: [{ text: 'Hush.', pcm: { sampleRate: 22_050, samples: new Int16Array(22_050) } }],
    };
    expect(() => assemble([segments[0]!, mute])).toThrow(
      /segment 2 \(transition "Hush"\) has nothing audible/,
    );
    expect(() => assemble([])).toThrow(AssemblyError);
    expect(() => assemble(segments, { sentencePauseMs: -1 })).toThrow(/sentencePauseMs/);
  });
});

describe('normaliseLoudness', () => {
  let programme: Pcm;
  beforeAll(() => {
    // Two segments (some eight seconds) are enough to measure, and quicker than the whole.
    programme = assemble(segments.slice(0, 2), timing).pcm;
  });

  it('brings the programme to a target it can reach, within 1 LU, without clipping or changing its length', async () => {
    // espeak-ng's peaks sit some 19 dB above its loudness: -23 LUFS is reachable under the -1.5 dBTP ceiling.
    const quiet = {
      sampleRate: programme.sampleRate,
      samples: programme.samples.map((x) => Math.round(x / 4)),
    };
    const result = await normaliseLoudness(quiet, { targetLufs: -23 });
    expect(result.gainDb).toBeGreaterThan(6);
    expect(result.limitedByPeak).toBe(false);
    expect(result.pcm.samples.length).toBe(quiet.samples.length);
    expect(clippedShare(result.pcm)).toBe(0);
    expect(Math.abs((await measureLoudness(result.pcm)).integratedLufs - -23)).toBeLessThan(1);
  });

  it('stops short of the default -16 LUFS rather than push the true peak above -1.5 dBTP', async () => {
    const result = await normaliseLoudness(programme);
    // Measured by ffmpeg's other meter (loudnorm, its true peak at 192 kHz), not the one normaliseLoudness uses.
    const measured = await loudnormOf(await encodeAudio(result.pcm, 'wav'));
    expect(measured.truePeak).toBeLessThanOrEqual(-1.5 + 0.05);
    expect(clippedShare(result.pcm)).toBe(0);
    // Linear: the loudness moved by exactly the gain.
    expect(Math.abs(measured.lufs - (result.measuredLufs + result.gainDb))).toBeLessThan(0.3);
    if (result.limitedByPeak) {
      expect(measured.truePeak).toBeGreaterThan(-2.2); // all the headroom used
      expect(measured.lufs).toBeLessThan(-16);
    } else {
      expect(Math.abs(measured.lufs - -16)).toBeLessThan(1);
    }
  });

  it('turns a programme that is too loud down', async () => {
    const result = await normaliseLoudness(programme, { targetLufs: -30 });
    expect(result.gainDb).toBeLessThan(0);
    expect(Math.abs((await measureLoudness(result.pcm)).integratedLufs - -30)).toBeLessThan(1);
  });

  it('leaves silence, near-silence and nothing alone', async () => {
    const mute = { sampleRate: 22_050, samples: new Int16Array(44_100) };
    expect(await normaliseLoudness(mute)).toMatchObject({ pcm: mute, gainDb: 0, measuredLufs: -Infinity });
    const empty = { sampleRate: 22_050, samples: new Int16Array(0) };
    expect((await normaliseLoudness(empty)).pcm.samples.length).toBe(0);
    // Below ebur128's absolute gate (-70 LUFS): measured by ffmpeg, found unmeasurable, not amplified.
    const hiss = { sampleRate: 22_050, samples: Int16Array.from({ length: 44_100 }, (_, i) => (i % 7) - 3) };
    const result = await normaliseLoudness(hiss);
    expect(result).toMatchObject({ pcm: hiss, gainDb: 0, measuredLufs: -Infinity });
    expect(result.truePeakDbtp).toBeLessThan(-70);
  });

  it("reads ebur128's summary, and says when there is none", () => {
    const summary =
      '[Parsed_ebur128_0 @ 0x1] Summary:\n\n  Integrated loudness:\n    I:         -20.5 LUFS\n' +
      '    Threshold: -30.7 LUFS\n\n  True peak:\n    Peak:       -inf dBFS\n';
    expect(parseEbur128Summary(summary)).toEqual({ integratedLufs: -20.5, truePeakDbtp: -Infinity });
    expect(parseEbur128Summary(summary.replace('-20.5', '-70.0')).integratedLufs).toBe(-Infinity);
    expect(() => parseEbur128Summary('Conversion failed!')).toThrow(/no summary: Conversion failed!/);
  });

  it('reports an ffmpeg stopped by SIGTERM from outside as unavailable: the documentary waits', async () => {
    const ffmpeg = interruptedFfmpeg();
    try {
      const error = await normaliseLoudness(programme, { ffmpegPath: ffmpeg.path }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpeechUnavailableError);
      // Exit code 255 once ffmpeg handles the signal; SIGTERM itself when it came before that.
      expect((error as Error).message).toMatch(
        /was stopped by (a signal \(exit code 255\)|SIGTERM) from outside/,
      );
    } finally {
      ffmpeg.remove();
    }
  });

  it('says which Debian package to install when ffmpeg is missing', async () => {
    await expect(normaliseLoudness(programme, { ffmpegPath: 'ffmpeg-that-is-not-there' })).rejects.toThrow(
      /Debian package `ffmpeg`/,
    );
  });
});

describe('encodeWithChapters', () => {
  let assembled: { pcm: Pcm; timeline: AssembledTimeline };
  beforeAll(() => {
    assembled = assemble(segments, timing);
  });

  it("writes an mp3 of the timeline's length with one titled chapter per segment", async () => {
    const { pcm, timeline } = assembled;
    const bytes = await encodeWithChapters(pcm, 'mp3', chaptersOf(timeline), { title: 'Harbours' });
    expect(await probeAudio(bytes)).toEqual({
      container: 'mp3',
      codec: 'mp3',
      sampleRate: 22_050,
      channels: 1,
    });
    // No LAME header over a pipe: the decoder's delay and the last frame's padding (50 to 80 ms) remain.
    const decoded = durationMs(await decodeAudio(bytes));
    expect(decoded - timeline.durationMs).toBeGreaterThanOrEqual(0);
    expect(decoded - timeline.durationMs).toBeLessThan(80);
    const { chapters } = await probeChapters(bytes);
    expect(chapters.map((c) => c.tags?.title)).toEqual(script.map((s) => s.title));
    expect(chapters.map((c) => Math.round(Number(c.start_time) * 1000))).toEqual(
      timeline.segments.map((s) => s.startMs),
    );
    expect(chapters.map((c) => Math.round(Number(c.end_time) * 1000))).toEqual(
      timeline.segments.map((s) => s.endMs),
    );
    // An ID3v2.3 tag before the very frames encodeAudio makes.
    expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('ID3\u0003');
    const plain = await encodeAudio(pcm, 'mp3');
    expect(Buffer.from(bytes.subarray(bytes.length - plain.length)).equals(Buffer.from(plain))).toBe(true);
  });

  it('writes an Ogg Opus file with the chapters as Vorbis comments', async () => {
    const { pcm, timeline } = assembled;
    const bytes = await encodeWithChapters(pcm, 'ogg', chaptersOf(timeline));
    expect((await probeAudio(bytes)).codec).toBe('opus');
    expect(Math.abs(durationMs(await decodeAudio(bytes)) - timeline.durationMs)).toBeLessThan(80);
    const { chapters } = await probeChapters(bytes);
    expect(chapters.map((c) => c.tags?.title)).toEqual(script.map((s) => s.title));
    expect(chapters.map((c) => Math.round(Number(c.start_time) * 1000))).toEqual(
      timeline.segments.map((s) => s.startMs),
    );
  });

  it('writes WAV as encodeAudio does (no chapters in WAV), and the same bytes each time', async () => {
    const chapters = chaptersOf(assembled.timeline);
    const wav = await encodeWithChapters(assembled.pcm, 'wav', chapters);
    expect(Buffer.from(wav).equals(Buffer.from(await encodeAudio(assembled.pcm, 'wav')))).toBe(true);
    const [a, b] = await Promise.all([1, 2].map(() => encodeWithChapters(assembled.pcm, 'mp3', chapters)));
    expect(Buffer.from(a!).equals(Buffer.from(b!))).toBe(true);
  });

  it('puts a title on one line and escapes what FFMETADATA would read as syntax', async () => {
    expect(escapeMetadata('a=b;c#d\\e\nf')).toBe('a\\=b\\;c\\#d\\\\e\\\nf');
    const text = ffmetadata([{ title: 'Rates = up;\n#1 \\ back', startMs: 0, endMs: 1000 }], {
      title: 'Doc',
    });
    expect(text).toBe(
      ';FFMETADATA1\ntitle=Doc\n\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=Rates \\= up\\; \\#1 \\\\ back\n',
    );
    expect(
      ffmetadata(
        [
          { title: 'a=b', startMs: 0, endMs: 1963 },
          { title: 'c', startMs: 1963, endMs: 3_725_004 },
        ],
        { asComments: true },
      ),
    ).toBe(
      ';FFMETADATA1\nCHAPTER000=00:00:00.000\nCHAPTER000NAME=a\\=b\nCHAPTER001=00:00:01.963\nCHAPTER001NAME=c\n',
    );
    const bytes = await encodeWithChapters(assembled.pcm, 'mp3', [
      { title: 'Rates = up;\n#1 \\ back', startMs: 0, endMs: 1000 },
      { title: 'Rest', startMs: 1000, endMs: assembled.timeline.durationMs },
    ]);
    expect((await probeChapters(bytes)).chapters.map((c) => c.tags?.title)).toEqual([
      'Rates = up; #1 \\ back',
      'Rest',
    ]);
  });

  it('refuses chapters out of order, overlapping or empty', async () => {
    for (const chapters of [
      [
        { title: 'b', startMs: 1000, endMs: 2000 },
        { title: 'a', startMs: 0, endMs: 1000 },
      ],
      [
        { title: 'a', startMs: 0, endMs: 1500 },
        { title: 'b', startMs: 1000, endMs: 2000 },
      ],
      [{ title: 'a', startMs: 500, endMs: 500 }],
    ]) {
      await expect(encodeWithChapters(assembled.pcm, 'mp3', chapters)).rejects.toThrow(
        /chapters must be in order/,
      );
    }
  });
});
