// What bench:audio compares: the narrator's own work (narrateArticle over the synthesizer, the embedded
// provider and a local audio store, in this process) and the bare engines run as commands on the same
// texts, each producing the same mp3. A side speaks one text per call; the bench calls it from as many
// workers as the concurrency says, each worker with its slot number.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { AudioFormat } from '../../../services/audio/audio-store.ts';
import { LocalAudioStore } from '../../../services/audio/local-store.ts';
import {
  maxNarrationCharacters,
  narrateArticle,
  type NarrateArticleDependencies,
} from '../../../services/narration/narrate-article.ts';
import type { ArticleWords } from '../../../services/narration/narration-text.ts';
import { createLogger } from '../../../services/runtime/logger.ts';
import { createEmbeddedSpeechProvider } from '../../../services/speech/embedded/embedded-provider.ts';
import { encodeAudio } from '../../../services/speech/encoder.ts';
import type { Pcm, SpeechProvider } from '../../../services/speech/provider.ts';
import { createSynthesizer } from '../../../services/speech/synthesizer.ts';
import type { Voice } from '../../../services/speech/voice.ts';
import { encodeArgs, espeakArgs, run, text2waveArgs } from './commands.ts';
import { startFestivalSession, type FestivalSession } from './festival-session.ts';
import { Profile } from './profile.ts';

export interface BenchText {
  /** Corpus id, e.g. business/004. */
  id: string;
  /** The article as the narrator gets it. */
  words: ArticleWords;
  /** What the narrator reads (narrationText, whitespace-normalised): the bare engines get exactly this. */
  text: string;
  /** `text` in a file, for the command lines. */
  textFile: string;
}

export interface Spoken {
  mp3: string;
  /** Known at once (the narrator says it), or read from `wav` after the timed run. */
  audioSeconds?: number;
  wav?: string;
}

export interface Side {
  /** Short name for the tables. */
  name: string;
  /** What it runs, for the output. */
  describe: string;
  /** Starts long-lived processes and loads voices; not timed. */
  warmUp(): Promise<void>;
  speak(text: BenchText, slot: number, outDir: string): Promise<Spoken>;
  /** Busy seconds per step, summed over calls (with concurrency they add up to more than the wall time). */
  readonly profile: Profile;
  /** Anything else worth printing about its work so far. */
  notes?(): string;
  close(): Promise<void>;
}

const fileName = (text: BenchText, extension: string) => `${text.id.replace('/', '-')}.${extension}`;

// ---- the narrator ---------------------------------------------------------------------------------

/**
 * narrateArticle as the narrator's batch handler calls it (services/narrator/narrator.ts), with the
 * embedded provider (`festivalProcesses` Festival processes), SPEECH_CONCURRENCY = `concurrency`, mp3, a
 * local audio store in `storeDir`. Provider, encoder and store calls are timed for the profile; nothing
 * else is changed. A narration that does not succeed, or finds its audio already stored, fails the bench.
 */
export function narratorSide(options: {
  concurrency: number;
  storeDir: string;
  /** The languages it will narrate in, whose engines the warm-up starts. */
  languages: readonly string[];
  format?: AudioFormat;
}): Side & { voiceFor(language: string): Promise<Voice> } {
  const profile = new Profile();
  const logger = createLogger('bench-narrator', 'warn');
  const embedded = createEmbeddedSpeechProvider({ festivalProcesses: options.concurrency, logger });
  const provider: SpeechProvider = {
    name: embedded.name,
    limits: embedded.limits,
    voices: () => embedded.voices(),
    synthesize: (request) => profile.time('engine', () => embedded.synthesize(request)),
    ...(embedded.textLimits ? { textLimits: embedded.textLimits.bind(embedded) } : {}),
    ...(embedded.sentencePauseMs ? { sentencePauseMs: embedded.sentencePauseMs.bind(embedded) } : {}),
    close: () => embedded.close?.() ?? Promise.resolve(),
  };
  const local = new LocalAudioStore(options.storeDir);
  let cachedHits = 0;
  const store = {
    head: async (key: string) => {
      const found = await profile.time('store', () => local.head(key));
      if (found) cachedHits++;
      return found;
    },
    put: (key: string, bytes: Uint8Array, meta: { contentType: string; durationMs: number | null }) =>
      profile.time('store', () => local.put(key, bytes, meta)),
    read: local.read.bind(local),
  };
  let pieces = 0;
  const synthesis = createSynthesizer({
    providers: [provider],
    store,
    maxCharacters: maxNarrationCharacters,
    concurrency: options.concurrency,
    encode: (pcm: Pcm, format) => profile.time('encode', () => encodeAudio(pcm, format)),
    onProviderCall: () => pieces++,
  });
  const deps: NarrateArticleDependencies = {
    synthesis,
    audioAddress: (key) => `http://bench.invalid/v1/audio/${key}`,
    format: options.format ?? 'mp3',
    text: 'summary',
    // A failure should stop the bench, not be retried out of sight.
    retry: { maxAttempts: 1, initialBackoffMs: 0, maxBackoffMs: 0 },
    defaultProvider: embedded.name,
    logger,
  };
  return {
    name: 'narrator',
    describe: `narrateArticle, synthesizer (embedded provider; SPEECH_CONCURRENCY and SPEECH_FESTIVAL_PROCESSES ${options.concurrency}), ffmpeg, local store`,
    profile,
    async warmUp() {
      // A short narration per worker and language starts every engine process the run will use.
      for (const language of options.languages) {
        await Promise.all(
          Array.from({ length: options.concurrency }, (_, i) =>
            synthesis.synthesize({ text: `Warming up, number ${i + 1}.`, language, format: 'mp3' }),
          ),
        );
      }
      cachedHits = 0;
      pieces = 0;
      profile.reset();
    },
    async speak(text) {
      const before = cachedHits;
      const narrated = await profile.time('narrate', () => narrateArticle(text.id, text.words, deps));
      if (narrated.status !== 'succeeded')
        throw new Error(`narrating ${text.id}: ${narrated.status} (${narrated.failure_reason ?? ''})`);
      if (cachedHits !== before) throw new Error(`narrating ${text.id} found its audio already stored`);
      const key = narrated.audio_key!;
      return {
        mp3: path.join(local.directory, key.slice(0, 2), key),
        audioSeconds: narrated.duration_ms! / 1000,
      };
    },
    notes: () => {
      // What is not the engine, the encoder or the store: splitting, reading the engine's WAV, trimming,
      // fading and joining the pieces, piping to and from ffmpeg, picking the voice.
      const { narrate = 0, engine = 0, encode = 0, store = 0 } = profile.wall;
      const rest =
        options.concurrency === 1 ? `, the rest ${(narrate - engine - encode - store).toFixed(1)} s` : '';
      return `${pieces} provider calls${rest}`;
    },
    voiceFor: (language) => synthesis.voiceFor({ language }),
    close: () => synthesis.close(),
  };
}

// ---- the bare engines -----------------------------------------------------------------------------

/** Engine into a WAV file, then ffmpeg from it into the mp3: the two commands one after the other. */
async function engineThenEncoder(
  profile: Profile,
  text: BenchText,
  outDir: string,
  engine: (wav: string) => Promise<void>,
): Promise<Spoken> {
  const wav = path.join(outDir, fileName(text, 'wav'));
  const mp3 = path.join(outDir, fileName(text, 'mp3'));
  await profile.time('engine', () => engine(wav));
  await profile.time('encode', () => run('ffmpeg', encodeArgs(wav, mp3)));
  return { mp3, wav };
}

/** `text2wave` per text: a Festival process started (and the voice loaded) for each. */
export function text2waveSide(): Side {
  const profile = new Profile();
  return {
    name: 'text2wave',
    describe:
      'text2wave -eval (voice_cmu_us_slt_arctic_hts) -o x.wav x.txt && ffmpeg -i x.wav … x.mp3, per text',
    profile,
    warmUp: async () => {},
    speak: (text, _slot, outDir) =>
      engineThenEncoder(profile, text, outDir, (wav) => run('text2wave', text2waveArgs(text.textFile, wav))),
    close: async () => {},
  };
}

/** One warm Festival process per worker, doing what text2wave does (festival-session.ts). */
export function festivalSessionSide(concurrency: number): Side {
  const profile = new Profile();
  let sessions: FestivalSession[] = [];
  return {
    name: 'festival',
    describe: `festival --pipe, voice loaded once (${concurrency} process(es)), text2wave's tts_file per text, then ffmpeg`,
    profile,
    async warmUp() {
      sessions = await Promise.all(Array.from({ length: concurrency }, () => startFestivalSession()));
    },
    speak: (text, slot, outDir) =>
      engineThenEncoder(profile, text, outDir, (wav) => sessions[slot]!.say(text.textFile, wav)),
    async close() {
      await Promise.all(sessions.map((session) => session.close()));
    },
  };
}

/** `espeak-ng` per text, in the voice the narrator picks for the same language. */
export function espeakSide(engineVoice: string): Side {
  const profile = new Profile();
  return {
    name: 'espeak-ng',
    describe: `espeak-ng -b 1 -a 75 -v ${engineVoice} -s 175 -w x.wav -f x.txt && ffmpeg -i x.wav … x.mp3, per text`,
    profile,
    warmUp: async () => {},
    speak: (text, _slot, outDir) =>
      engineThenEncoder(profile, text, outDir, (wav) =>
        run('espeak-ng', espeakArgs(engineVoice, text.textFile, wav)),
      ),
    close: async () => {},
  };
}

/** Removes a run's output files (the narrator's store is removed with its folder). */
export const removeFiles = (files: readonly string[]) =>
  Promise.all(files.map((file) => rm(file, { force: true })));

/** Runs `work` over `items` from `slots` workers, each knowing its slot (0..slots-1); results in order. */
export async function inSlots<T, R>(
  items: readonly T[],
  slots: number,
  work: (item: T, slot: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (slot: number) => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, slot);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(slots, items.length)) }, (_, slot) => worker(slot)),
  );
  return results;
}
