// PCM to the formats the API serves. WAV is written here; mp3 and Ogg Opus by an ffmpeg child process fed
// and read through pipes (no temporary files). Settings chosen for speech, mono:
// - mp3: libmp3lame, constant 64 kbit/s at the voice's own rate (22.05 kHz espeak-ng, 32 kHz Festival,
//   both standard MPEG audio rates), what podcast players expect of spoken audio. Constant bit rate so
//   the length is known from the size: over a pipe ffmpeg cannot go back to write a Xing header.
// - ogg: libopus at 32 kbit/s with its speech tuning (`voip`), resampled to 48 kHz, Opus's native rate.
// Both at encoder effort 5 of 9/10: twice as fast as the defaults (mp3 about 260, Opus about 110 times
// real time here), no difference worth hearing for speech at these rates; encoding is otherwise the
// slowest step after espeak-ng.
// An ffmpeg stopped by SIGTERM and the like fails as unavailable (stopped-from-outside.ts), not as an
// encoding error: the caller waits and encodes again.
// Output is bit-exact (no encoder version or random stream serial in it), so the same PCM gives the same
// bytes, in keeping with content-addressed storage.
import { spawn } from 'node:child_process';
import type { AudioFormat } from '../audio/audio-store.ts';
import { writeWav } from './pcm.ts';
import type { Pcm } from './provider.ts';
import { ffmpegStoppedFromOutside } from './stopped-from-outside.ts';

export interface EncoderOptions {
  /** The ffmpeg binary; `ffmpeg` on the PATH by default. */
  ffmpegPath?: string;
  /** An encoding that takes longer is killed (a hung ffmpeg must not hold a request forever). */
  timeoutMs?: number;
}

export class EncoderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EncoderError';
  }
}

const codecArgs: Record<Exclude<AudioFormat, 'wav'>, string[]> = {
  mp3: [
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
    '-compression_level',
    '5',
    ...['-write_xing', '0', '-id3v2_version', '0', '-f', 'mp3'],
  ],
  ogg: [
    '-c:a',
    'libopus',
    '-b:a',
    '32k',
    '-application',
    'voip',
    '-compression_level',
    '5',
    ...['-ar', '48000', '-f', 'ogg'],
  ],
};

/** Encodes mono PCM as `format`, returning the file's bytes. */
export async function encodeAudio(
  pcm: Pcm,
  format: AudioFormat,
  options: EncoderOptions = {},
): Promise<Uint8Array> {
  if (format === 'wav') return writeWav(pcm);
  const args = [
    ...['-hide_banner', '-loglevel', 'error'],
    ...['-f', 's16le', '-ar', String(pcm.sampleRate), '-ac', '1', '-i', 'pipe:0'],
    ...['-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact'],
    ...codecArgs[format],
    // Output in 32 KB writes, not a write per packet: a pipe otherwise gets one per mp3 frame (about
    // 1,600 for a minute of speech), each a read and an event-loop turn here (bench:audio).
    ...['-flush_packets', '0'],
    'pipe:1',
  ];
  const input = Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength);
  return runFfmpeg(options.ffmpegPath ?? 'ffmpeg', args, littleEndian(input), options.timeoutMs ?? 120_000);
}

/** ffmpeg is told s16le; typed arrays hold samples in the machine's byte order, so swap on big-endian. */
function littleEndian(bytes: Buffer): Buffer {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) return bytes;
  return Buffer.from(bytes).swap16();
}

/** Runs ffmpeg with `input` on its standard input and returns its standard output. */
export function runFfmpeg(
  command: string,
  args: string[],
  input: Uint8Array,
  timeoutMs: number,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    let stderr = '';
    let settled = false;
    const finish = (error: Error | null, result?: Uint8Array) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(result!);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new EncoderError(`${command} took longer than ${timeoutMs} ms and was stopped`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        error.code === 'ENOENT'
          ? new EncoderError(
              `${command} is not installed: it encodes mp3 and ogg audio. Install the Debian package ` +
                '`ffmpeg` (apt-get install ffmpeg; `npm run stack -- up` installs it with the speech engines).',
              { cause: error },
            )
          : new EncoderError(`${command} could not be started: ${error.message}`, { cause: error }),
      );
    });
    child.on('close', (code, signal) => {
      if (code === 0) finish(null, new Uint8Array(Buffer.concat(output)));
      else
        finish(
          ffmpegStoppedFromOutside(command, code, signal) ??
            new EncoderError(
              `${command} failed (${signal ?? `exit code ${code}`}): ${tail(stderr) || 'no message'}`,
            ),
        );
    });
    // An early exit closes the pipe under us; the exit code and stderr then say why.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** The last lines of a tool's error output, which say what went wrong. */
const tail = (text: string) => text.trim().split('\n').slice(-5).join(' | ');
