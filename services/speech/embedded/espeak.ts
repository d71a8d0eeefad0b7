// Every language but Festival's US English, through espeak-ng (Debian espeak-ng): formant synthesis,
// fast (about 1000 times real time, so a process per request costs nothing worth pooling), and about
// 130 languages. Its catalogue comes from `espeak-ng --voices`, mapped to BCP 47 tags.
//
// Voices per language: two, a male one (the language's own voice, as its maintainers tuned it) and a
// female one (the same language with the `f3` variant: raised pitch and formants). espeak-ng ships some
// hundred variants, but they are either novelty voices (robots, whispers, croaks) or pitch shifts of
// these two that a listener would not tell apart; two per language is a real choice without padding the
// list.
//
// Text goes in on standard input (the audio comes out in a file) and is never interpreted: no `-m` (SSML), control characters removed
// (they introduce espeak's embedded commands), and `[[`, which would start espeak's phoneme input, broken
// into `[ [` so it is read as brackets.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { iso6393, iso6393To1 } from 'iso-639-3';
import { readWav } from '../pcm.ts';
import { SpeechRejectedError, SpeechUnavailableError, type Pcm } from '../provider.ts';
import type { Voice } from '../voice.ts';
import { stoppedFromOutside } from '../stopped-from-outside.ts';

export const espeakSampleRate = 22_050;
/** espeak-ng's own default rate, which speed 1.0 keeps. */
const normalWordsPerMinute = 175;
/** The rates espeak-ng accepts (80 to 450 words a minute) as speeds: 0.46 to 2.57. */
export const espeakSpeedRange = { min: 80 / normalWordsPerMinute, max: 450 / normalWordsPerMinute };
const femaleVariant = 'f3';

/** One row of `espeak-ng --voices`. */
export interface EspeakEntry {
  /** espeak's language code, e.g. `pt-br`, `cmn`, `en-gb-x-rp`. */
  language: string;
  /** espeak's priority of the voice for that code (lower is preferred). */
  priority: number;
  /** e.g. `Portuguese_(Brazil)`. */
  name: string;
  /** The voice file, which `-v` accepts (unlike some language codes): e.g. `roa/pt-BR`. */
  file: string;
  /** Other codes it speaks, with espeak's priority (lower is preferred): `(pt 6)`. */
  others: { language: string; priority: number }[];
}

const voiceRow = /^\s*(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*(.*)$/;

export function parseVoiceList(output: string): EspeakEntry[] {
  const entries: EspeakEntry[] = [];
  for (const line of output.split('\n').slice(1)) {
    const match = voiceRow.exec(line);
    if (!match) continue;
    const others = Array.from(match[6]!.matchAll(/\((\S+) (\d+)\)/g), (m) => ({
      language: m[1]!,
      priority: Number(m[2]),
    }));
    entries.push({
      language: match[2]!,
      priority: Number(match[1]),
      name: match[4]!,
      file: match[5]!,
      others,
    });
  }
  return entries;
}

// ---- BCP 47 -------------------------------------------------------------------------------------------

const iso6391Codes = new Set(iso6393.flatMap((language) => (language.iso6391 ? [language.iso6391] : [])));
const iso6393Codes = new Set(iso6393.map((language) => language.iso6393));

/**
 * Where espeak's code is not the tag a client would look for, or not valid BCP 47. Each voice's first tag
 * is its main one (its id's prefix); the others are tags it also answers to.
 */
const tagOverrides: Record<string, string[]> = {
  // Mandarin is what "Chinese" means in news text and in ISO 639-1 (articles carry `zh`); its ISO 639-3
  // code stays as a second tag.
  cmn: ['zh', 'cmn'],
  // Cantonese has no ISO 639-1 code; it is the spoken language of Hong Kong, so `zh-HK` finds it. (espeak
  // also lists it under `zh`, after Mandarin.)
  yue: ['yue', 'zh-HK'],
  // Hakka keeps its ISO 639-3 code, the BCP 47 tag for it (`zh-hak` is deprecated); espeak does not
  // offer it for `zh`, and neither do we.
  hak: ['hak'],
  // Both have a regional sibling (pt-BR, es-419), so the region of the plain voice is said.
  pt: ['pt-PT'],
  es: ['es-ES'],
  // `nyc` is too short for a BCP 47 variant subtag; a private-use subtag keeps it.
  'en-us-nyc': ['en-US-x-nyc'],
  // Klingon in its pIqaD script (`piqd` is not a language subtag; Piqd is the ISO 15924 script).
  piqd: ['tlh-Piqd'],
  // Pyash, a constructed language with no ISO 639 code.
  py: ['art-x-pyash'],
};

/**
 * Other names espeak lists that we do not answer to: deprecated forms of Armenian, and Serbo-Croatian
 * (`hbs`, ISO 639-1 `sh`, which CLDR folds into Serbian): Croatian text is tagged `hr`.
 */
const skippedTags = new Set(['hy-arevela', 'hy-arevmda', 'hbs']);

/** A voice's main tag: the override, or espeak's code in BCP 47 form. */
export const toBcp47 = (code: string): string => tagOverrides[code.toLowerCase()]?.[0] ?? normaliseTag(code);

/** espeak's lower-case code in BCP 47 case and form: `pt-br` -> `pt-BR`, `fa-latn` -> `fa-Latn`. */
export function normaliseTag(code: string): string {
  const [first, ...rest] = code.toLowerCase().split('-');
  let language = first!;
  // An extended language subtag (`zh-yue`) is canonically the language itself (`yue`).
  if (language === 'zh' && rest[0] && /^[a-z]{3}$/.test(rest[0])) language = rest.shift()!;
  language = iso6393To1[language] ?? language;
  const known =
    (language.length === 2 && iso6391Codes.has(language)) ||
    (language.length === 3 && (iso6393Codes.has(language) || (language >= 'qaa' && language <= 'qtz')));
  if (!known) return `x-espeak-${code.toLowerCase()}`;
  // BCP 47 orders script before region (espeak writes `chr-US-Qaaa-x-west`).
  const script: string[] = [];
  const region: string[] = [];
  const variants: string[] = [];
  const privateUse = rest.indexOf('x') === -1 ? [] : rest.splice(rest.indexOf('x'));
  for (const subtag of rest) {
    if (/^[a-z]{4}$/.test(subtag)) script.push(subtag[0]!.toUpperCase() + subtag.slice(1));
    else if (/^([a-z]{2}|\d{3})$/.test(subtag)) region.push(subtag.toUpperCase());
    else variants.push(subtag);
  }
  return [language, ...script, ...region, ...variants, ...privateUse].join('-');
}

const baseOf = (tag: string) => tag.split('-')[0]!.toLowerCase();

/** The tags an entry answers to, its main one first. */
export function languageTags(entry: EspeakEntry): string[] {
  const main = toBcp47(entry.language);
  const tags = [...(tagOverrides[entry.language.toLowerCase()] ?? [main])];
  for (const other of [...entry.others].sort((a, b) => a.priority - b.priority)) {
    if (skippedTags.has(other.language.toLowerCase())) continue;
    const tag = normaliseTag(other.language);
    // A bare language the main tag already implies (`en` for en-GB) adds nothing.
    if (!tag.includes('-') && baseOf(tag) === baseOf(main)) continue;
    if (!tags.some((t) => t.toLowerCase() === tag.toLowerCase())) tags.push(tag);
  }
  return tags;
}

/**
 * Versions of a language meant for text in another script (Mandarin or Cantonese written in Latin
 * letters, read as Pinyin or Jyutping): news is written in Hanzi, where they speak as the main voice.
 */
const isRomanisationVoice = (entry: EspeakEntry) => /latin_as_(pinyin|jyutping)/i.test(entry.name);

const displayName = (entry: EspeakEntry) => entry.name.replace(/_/g, ' ').trim();

/**
 * The voices offered, espeak's preferred voice of each language first (its priorities: for `en` that is
 * en-GB, for `zh` Mandarin, for `pt` Portugal), then by main tag; male then female.
 */
export function espeakVoices(entries: EspeakEntry[]): Voice[] {
  const usable = entries.filter((entry) => !isRomanisationVoice(entry));
  const withTags = usable.map((entry) => ({ entry, tags: languageTags(entry) }));
  // espeak's priority for the bare language: of the voice itself when its code is bare (`de`), else of
  // the bare code among its other names (`(en 2)` for en-gb); a voice that does not claim it comes last.
  const rank = ({ entry, tags }: (typeof withTags)[number]) => {
    const base = baseOf(tags[0]!);
    if (!entry.language.includes('-')) return entry.priority;
    return entry.others.find((o) => o.language.toLowerCase() === base)?.priority ?? 10;
  };
  withTags.sort(
    (a, b) =>
      baseOf(a.tags[0]!).localeCompare(baseOf(b.tags[0]!)) ||
      rank(a) - rank(b) ||
      a.tags[0]!.localeCompare(b.tags[0]!),
  );
  return withTags.flatMap(({ entry, tags }) =>
    (['male', 'female'] as const).map((gender): Voice => ({
      id: `${tags[0]}-espeak-${gender === 'male' ? 'm' : 'f'}`,
      name: `${displayName(entry)}, espeak-ng ${gender}`,
      languageCodes: tags,
      gender,
      provider: 'embedded',
      quality: 'formant',
      sampleRateHz: espeakSampleRate,
      engineVoice: gender === 'male' ? entry.file : `${entry.file}+${femaleVariant}`,
    })),
  );
}

// ---- the binary ---------------------------------------------------------------------------------------

export interface EspeakOptions {
  /** The espeak-ng binary. */
  command?: string;
  timeoutMs?: number;
}

const missing = (command: string, cause: unknown) =>
  new SpeechUnavailableError(
    `${command} is not installed: speech in languages other than US English needs the Debian package ` +
      '`espeak-ng` (`npm run stack -- up` installs it).',
    { cause },
  );

/** The catalogue of the installed espeak-ng. */
export async function listEspeakVoices(options: EspeakOptions = {}): Promise<Voice[]> {
  const command = options.command ?? 'espeak-ng';
  try {
    const { stdout } = await promisify(execFile)(command, ['--voices'], {
      timeout: options.timeoutMs ?? 10_000,
    });
    return espeakVoices(parseVoiceList(stdout));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missing(command, error);
    throw new SpeechUnavailableError(`${command} --voices failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** `text` as espeak reads it, without any of its in-text commands. */
export const plainForEspeak = (text: string): string =>
  text.replace(/\p{Cc}+/gu, ' ').replace(/\[(?=\[)/g, '[ ');

/** Words a minute for a speed, within what espeak-ng accepts. */
export const wordsPerMinute = (speed: number): number =>
  Math.min(450, Math.max(80, Math.round(normalWordsPerMinute * speed)));

/**
 * Speaks `text` in `engineVoice` (a voice file, optionally `+variant`).
 *
 * Into a temporary WAV file, not standard output: `--stdout` writes a kilobyte at a time, which cost the
 * narrator some 1,900 pipe reads (and as many event-loop turns and buffers) per article, a fifth of
 * its espeak-ng throughput when both cores are busy (bench:audio).
 */
export async function synthesizeEspeak(
  text: string,
  engineVoice: string,
  speed: number,
  options: EspeakOptions = {},
): Promise<Pcm> {
  const command = options.command ?? 'espeak-ng';
  const directory = await mkdtemp(join(tmpdir(), 'espeak-'));
  const file = join(directory, 'speech.wav');
  const args = [
    '-w',
    file,
    '--stdin',
    '-b',
    '1',
    '-a',
    '75',
    '-v',
    engineVoice,
    '-s',
    String(wordsPerMinute(speed)),
  ];
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-1_000)));
      child.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(
          error.code === 'ENOENT'
            ? missing(command, error)
            : new SpeechUnavailableError(error.message, { cause: error }),
        );
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) return resolve();
        const stopped = stoppedFromOutside('espeak-ng', signal);
        if (stopped) return reject(stopped);
        const why =
          signal === 'SIGKILL'
            ? 'took too long and was stopped'
            : `failed (${signal ?? `exit code ${code}`})`;
        reject(new SpeechRejectedError(`espeak-ng ${why}: ${stderr.trim() || 'no message'}`));
      });
      child.stdin.on('error', () => {});
      child.stdin.end(plainForEspeak(text));
    });
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      throw new SpeechRejectedError('espeak-ng wrote no audio for this text');
    }
    try {
      return readWav(bytes);
    } catch (error) {
      throw new SpeechRejectedError(`espeak-ng gave unusable audio: ${(error as Error).message}`);
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
