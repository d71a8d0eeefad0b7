// The bare engines as one would run them from a shell: each command's arguments, and a runner that waits
// for a command to exit and fails with the end of its error output.
import { spawn } from 'node:child_process';
import { festivalVoice } from '../../../services/speech/embedded/festival.ts';

/**
 * The narration's mp3 settings (services/speech/encoder.ts: libmp3lame, 64 kbit/s constant, mono, the
 * voice's own rate, effort 5), from a WAV file to an mp3 file.
 */
export const encodeArgs = (wav: string, mp3: string): string[] => [
  ...['-hide_banner', '-loglevel', 'error', '-y', '-i', wav],
  ...['-ac', '1', '-c:a', 'libmp3lame', '-b:a', '64k', '-compression_level', '5', mp3],
];

/** Festival's own text-to-wave script, with the HTS voice the narrator uses. */
export const text2waveArgs = (text: string, wav: string): string[] => [
  '-eval',
  `(voice_${festivalVoice})`,
  '-o',
  wav,
  text,
];

/**
 * espeak-ng as the embedded provider calls it (services/speech/embedded/espeak.ts: UTF-8 input,
 * amplitude 75, 175 words a minute = speed 1.0), writing a WAV file.
 */
export const espeakArgs = (engineVoice: string, text: string, wav: string): string[] => [
  ...['-b', '1', '-a', '75', '-v', engineVoice, '-s', '175'],
  ...['-w', wav, '-f', text],
];

/** Runs `command` to its end; rejects when it fails, with the last lines it wrote to standard error. */
export function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2_000)));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      reject(new Error(`${command} failed (${signal ?? `exit code ${code}`}): ${tail || 'no message'}`));
    });
  });
}
