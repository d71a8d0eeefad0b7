// What an encoded audio file really is, as a player would find it: container, codec and sample rate from
// ffprobe, and the samples decoded back by ffmpeg (for duration, loudness, clipping and pauses). The
// audio tests, end-to-end tests and the audio benchmark check synthesized files with it.
import { spawn } from 'node:child_process';
import { runFfmpeg } from './encoder.ts';
import type { Pcm } from './provider.ts';

export interface ProbedAudio {
  /** ffprobe's format name: `mp3`, `ogg`, `wav`. */
  container: string;
  /** `mp3`, `opus`, `pcm_s16le`... */
  codec: string;
  sampleRate: number;
  channels: number;
}

/** Reads the container and first audio stream of `bytes` with ffprobe. */
export async function probeAudio(bytes: Uint8Array): Promise<ProbedAudio> {
  const json = await run(
    'ffprobe',
    [
      ...['-v', 'error', '-of', 'json', '-i', 'pipe:0'],
      ...['-show_entries', 'format=format_name:stream=codec_type,codec_name,sample_rate,channels'],
    ],
    bytes,
  );
  const probed = JSON.parse(json) as {
    format?: { format_name?: string };
    streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; channels?: number }[];
  };
  const stream = probed.streams?.find((s) => s.codec_type === 'audio');
  if (!probed.format?.format_name || !stream) throw new Error('ffprobe found no audio stream');
  return {
    container: probed.format.format_name,
    codec: stream.codec_name ?? 'unknown',
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels ?? 0,
  };
}

/** Decodes `bytes` (any format ffmpeg reads) to mono 16-bit PCM at the file's own rate. */
export async function decodeAudio(bytes: Uint8Array): Promise<Pcm> {
  const { sampleRate } = await probeAudio(bytes);
  const raw = await runFfmpeg(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', '-ac', '1', '-f', 's16le', 'pipe:1'],
    bytes,
    60_000,
  );
  const samples = new Int16Array(raw.byteLength >> 1);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(2 * i, true);
  return { sampleRate, samples };
}

function run(command: string, args: string[], input: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} failed: ${stderr.trim().slice(-500)}`)),
    );
    // ffprobe stops reading once it knows enough; the rest of the input then meets a closed pipe.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
