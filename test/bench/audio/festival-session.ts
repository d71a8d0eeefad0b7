// One long-lived Festival process doing what `text2wave` does, without text2wave's start-up for every
// text: the voice is loaded once, then each job runs text2wave's own method (tts_file over the text file,
// every utterance Festival's tokenizer finds synthesized and appended to one RIFF file, its header
// rewritten at the end). The output is byte-identical to `text2wave -eval (voice_…) -o out.wav in.txt`.
// This is the strictest baseline for the narrator's Festival, which also keeps its processes running.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { festivalVoice, schemeString } from '../../../services/speech/embedded/festival.ts';

const setup = [
  `(voice_${festivalVoice})`,
  '(gc-status nil)',
  '(defvar bench_fp nil)',
  '(defvar bench_samples 0)',
  '(defvar bench_utt nil)',
  '(define (bench_save_wave utt)',
  '  (if (eq? bench_samples 0)',
  `      (wave.save.header bench_fp (utt.wave utt) 'riff nil (list (list "numsamples" 0))))`,
  `  (set! bench_samples (+ bench_samples (get_param 'num_samples (wave.info (utt.wave utt)) 0)))`,
  `  (wave.save.data.fp (utt.wave utt) bench_fp 'riff nil)`,
  '  (set! bench_utt utt))',
  '(set! tts_hooks (list utt.synth bench_save_wave))',
  '(define (bench_tts infile outfile)',
  '  (set! bench_fp (fopen outfile "wb"))',
  '  (set! bench_samples 0)',
  '  (tts_file infile nil)',
  '  (fseek bench_fp 0 0)',
  `  (wave.save.header bench_fp (utt.wave bench_utt) 'riff nil (list (list "numsamples" bench_samples)))`,
  '  (fclose bench_fp))',
  '(format t "\\nbench-ready\\n")(fflush nil)',
  '',
].join('\n');

export interface FestivalSession {
  readonly pid: number;
  /** Speaks the text file into a WAV file. */
  say(textFile: string, wavFile: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts `festival --pipe` and loads the voice; resolves when it is ready for jobs. */
export async function startFestivalSession(timeoutMs = 60_000): Promise<FestivalSession> {
  const child: ChildProcessWithoutNullStreams = spawn('festival', ['--pipe'], { stdio: 'pipe' });
  let buffered = '';
  let stderr = '';
  let waiting: { marker: string; resolve: () => void; reject: (error: Error) => void } | null = null;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (waiting && line.trim() === waiting.marker) waiting.resolve();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2_000)));
  child.stdin.on('error', () => {});
  child.once('exit', (code, signal) =>
    waiting?.reject(new Error(`festival exited (${signal ?? code}): ${stderr.trim().slice(-300)}`)),
  );
  const expect = (marker: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`festival gave no "${marker}" in ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiting = {
        marker,
        resolve: () => {
          clearTimeout(timer);
          waiting = null;
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          waiting = null;
          reject(error);
        },
      };
    });
  const ready = expect('bench-ready');
  child.stdin.write(setup);
  await ready;
  let jobs = 0;
  let queue = Promise.resolve();
  return {
    pid: child.pid!,
    say(textFile, wavFile) {
      // One job at a time per process; the bench gives each worker its own session anyway.
      const job = queue.then(() => {
        const marker = `bench-done ${++jobs}`;
        const done = expect(marker);
        child.stdin.write(
          `(bench_tts ${schemeString(textFile)} ${schemeString(wavFile)})\n` +
            `(format t "\\n${marker}\\n")(fflush nil)\n`,
        );
        return done;
      });
      queue = job.catch(() => undefined);
      return job;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
