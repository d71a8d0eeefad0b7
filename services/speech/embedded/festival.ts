// English through Festival and its HTS voice cmu_us_slt_arctic_hts (Debian festvox-us-slt-hts).
//
// A Festival process takes about half a second to start and ~330 MB once the voice is loaded, so a few
// long-lived `festival --pipe` processes (one by default) serve every request through a queue, instead
// of a process per request. Each job is one Scheme expression on the process's standard input: the text
// as a Scheme string literal (backslash and double quote escaped, control characters removed, so the
// text can never close the string and run as code), written to a temporary WAV file (Festival writes
// files, not pipes) that is read and deleted; a marker line on standard output says the job is done.
//
// A process that dies or does not answer within the job's timeout is killed and replaced by a fresh one,
// and the job is tried once more there; a second failure rejects it. One stopped by SIGTERM and the like
// is not retried (../stopped-from-outside.ts): the job fails as unavailable, for the caller to make again.
// Speed is HTS's own rate parameter (`-r`: 2.0 speaks twice as fast at the same pitch).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../runtime/logger.ts';
import { readWav } from '../pcm.ts';
import { SpeechRejectedError, SpeechUnavailableError, type Pcm } from '../provider.ts';
import { stoppedFromOutside } from '../stopped-from-outside.ts';

export const festivalVoice = 'cmu_us_slt_arctic_hts';
/** What the HTS voice produces; read from each file anyway. */
export const festivalSampleRate = 32_000;
/** The HTS rates that still sound like speech (checked by ear and by duration in festival.test.ts). */
export const festivalSpeedRange = { min: 0.5, max: 2.5 };

export interface FestivalOptions {
  /** Festival processes kept running (each ~330 MB); jobs beyond them wait in the queue. */
  processes?: number;
  /**
   * How long one job may take before its process counts as hung. The default allows a slow machine
   * 10 s plus 60 ms per character (Festival needs about 7 ms per character on one core).
   */
  jobTimeoutMs?: (characters: number) => number;
  /** How long a new process may take to load the voice. */
  startTimeoutMs?: number;
  /** The festival binary (tests substitute a stand-in). */
  command?: string;
  logger?: Logger;
}

export interface Festival {
  synthesize(text: string, speed: number): Promise<Pcm>;
  /** Ends every process; queued and running jobs fail. */
  close(): Promise<void>;
}

const controlCharacters = /\p{Cc}+/gu;

/** `text` as a Scheme string literal Festival reads back as exactly that text (minus control characters). */
export const schemeString = (text: string): string =>
  `"${text.replace(controlCharacters, ' ').replace(/[\\"]/g, (c) => `\\${c}`)}"`;

const markerPattern = /^newsint-(ready|done) (\S+)$/;

/** Loads the voice once and defines the one function jobs call. */
const setupScript = (voice: string) =>
  [
    `(${`voice_${voice}`})`,
    `(set! newsint_hts_params hts_engine_params)`,
    `(define (newsint_say text rate file)`,
    `  (set! hts_engine_params (append newsint_hts_params (list (list "-r" rate))))`,
    `  (utt.save.wave (utt.synth (eval (list 'Utterance 'Text text))) file 'riff))`,
    `(format t "\\nnewsint-ready %s\\n" current-voice)(fflush nil)`,
    '',
  ].join('\n');

interface Job {
  text: string;
  speed: number;
  attempts: number;
  resolve: (pcm: Pcm) => void;
  reject: (error: Error) => void;
}

/** A job's process stopped answering (or died): worth one more try on a fresh process. */
class ProcessFailure extends Error {}

/** One festival process, started on first use and again after it fails. */
class FestivalProcess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private ready: Promise<void> | null = null;
  private stderr = '';
  private buffered = '';
  private waiting: { marker: string; resolve: (value: string) => void; reject: (e: Error) => void } | null =
    null;

  constructor(
    private readonly options: Required<Pick<FestivalOptions, 'command' | 'startTimeoutMs'>> & {
      logger?: Logger;
    },
    private readonly files: () => Promise<string>,
    private readonly index: number,
  ) {}

  private jobs = 0;

  async run(text: string, speed: number, timeoutMs: number): Promise<Pcm> {
    await this.start();
    const child = this.child!;
    const id = `${this.index}-${++this.jobs}`;
    const file = join(await this.files(), `job-${id}.wav`);
    try {
      child.stdin.write(
        `(newsint_say ${schemeString(text)} ${speed.toFixed(3)} ${schemeString(file)})\n` +
          `(format t "\\nnewsint-done ${id}\\n")(fflush nil)\n`,
      );
      await this.expect('done', id, timeoutMs);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch {
        throw new SpeechRejectedError(`festival wrote no audio for this text: ${this.errorTail()}`);
      }
      try {
        return readWav(bytes);
      } catch (error) {
        throw new SpeechRejectedError(`festival wrote unusable audio: ${(error as Error).message}`);
      }
    } finally {
      await rm(file, { force: true });
    }
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    this.stderr = '';
    this.buffered = '';
    const child = spawn(this.options.command, ['--pipe'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.onOutput(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2_000);
    });
    child.stdin.on('error', () => {}); // a dead process: its exit is reported below
    // Only the current process may fail the current wait: a killed predecessor's exit arrives late.
    const failed = (error: Error) => {
      if (this.child !== child) return;
      this.forget();
      this.waiting?.reject(error);
    };
    child.on('error', (error: NodeJS.ErrnoException) =>
      failed(
        error.code === 'ENOENT'
          ? new SpeechUnavailableError(
              `${this.options.command} is not installed: English speech needs the Debian packages ` +
                '`festival` and `festvox-us-slt-hts` (`npm run stack -- up` installs them).',
              { cause: error },
            )
          : new SpeechUnavailableError(`festival could not be started: ${error.message}`, { cause: error }),
      ),
    );
    child.on('exit', (code, signal) =>
      failed(
        stoppedFromOutside('festival', signal) ??
          new ProcessFailure(`festival exited (${signal ?? `exit code ${code}`}): ${this.errorTail()}`),
      ),
    );
    child.stdin.write(setupScript(festivalVoice));
    this.ready = this.expect('ready', null, this.options.startTimeoutMs).then(
      (voice) => {
        if (voice !== festivalVoice) {
          this.stop();
          throw new SpeechUnavailableError(
            `festival has no voice ${festivalVoice}: install the Debian package festvox-us-slt-hts ` +
              `(${this.errorTail()})`,
          );
        }
        this.options.logger?.info({ process: this.index, pid: child.pid }, 'festival process ready');
      },
      (error: Error) => {
        this.stop();
        throw error instanceof SpeechUnavailableError
          ? error
          : new SpeechUnavailableError(`festival did not start: ${error.message}`, { cause: error });
      },
    );
    return this.ready;
  }

  /** Waits for the marker line; a timeout or a dead process rejects with ProcessFailure. */
  private expect(kind: 'ready' | 'done', id: string | null, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        this.stop();
        reject(new ProcessFailure(`festival did not answer within ${timeoutMs} ms and was stopped`));
      }, timeoutMs);
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          this.waiting = null;
          then(value);
        };
      this.waiting = {
        marker: kind === 'ready' ? 'ready' : `done ${id}`,
        resolve: settle(resolve),
        reject: settle(reject),
      };
    });
  }

  private onOutput(chunk: string) {
    this.buffered += chunk;
    const lines = this.buffered.split('\n');
    this.buffered = lines.pop()!;
    for (const line of lines) {
      const match = markerPattern.exec(line.trim());
      if (!match || !this.waiting) continue;
      if (match[1] === 'ready' && this.waiting.marker === 'ready') this.waiting.resolve(match[2]!);
      else if (`${match[1]} ${match[2]}` === this.waiting.marker) this.waiting.resolve(match[2]!);
    }
  }

  private errorTail = () =>
    this.stderr.trim().split('\n').slice(-3).join(' | ') || 'no message on standard error';

  private forget() {
    this.child = null;
    this.ready = null;
  }

  /** Kills the process now; the next job starts a fresh one. */
  stop() {
    const child = this.child;
    this.forget();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  /** Ends the process gently (end of input makes festival exit), killing it if it lingers. */
  async close(): Promise<void> {
    const child = this.child;
    this.forget();
    this.waiting?.reject(new ProcessFailure('festival was closed'));
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

export function createFestival(options: FestivalOptions = {}): Festival {
  const jobTimeoutMs = options.jobTimeoutMs ?? ((characters: number) => 10_000 + 60 * characters);
  let directory: Promise<string> | null = null;
  const files = () => (directory ??= mkdtemp(join(tmpdir(), 'festival-')));
  const workers = Array.from(
    { length: Math.max(1, options.processes ?? 1) },
    (_, index) =>
      new FestivalProcess(
        {
          command: options.command ?? 'festival',
          startTimeoutMs: options.startTimeoutMs ?? 30_000,
          logger: options.logger,
        },
        files,
        index,
      ),
  );
  const idle = [...workers];
  const queue: Job[] = [];
  let closed = false;

  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.shift()!;
      const job = queue.shift()!;
      void work(worker, job).finally(() => {
        idle.push(worker);
        pump();
      });
    }
  };

  async function work(worker: FestivalProcess, job: Job) {
    job.attempts++;
    try {
      job.resolve(await worker.run(job.text, job.speed, jobTimeoutMs(job.text.length)));
    } catch (error) {
      if (closed) return job.reject(new SpeechUnavailableError('festival was closed', { cause: error }));
      if (!(error instanceof ProcessFailure)) return job.reject(error as Error);
      options.logger?.warn({ err: error, attempt: job.attempts }, 'festival process failed; replaced');
      if (job.attempts < 2) {
        queue.unshift(job);
        return;
      }
      job.reject(
        new SpeechRejectedError(`festival failed twice on this text (${error.message})`, { cause: error }),
      );
    }
  }

  return {
    synthesize(text, speed) {
      if (closed) return Promise.reject(new SpeechUnavailableError('festival was closed'));
      return new Promise<Pcm>((resolve, reject) => {
        queue.push({ text, speed, attempts: 0, resolve, reject });
        pump();
      });
    },

    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new SpeechUnavailableError('festival was closed'));
      await Promise.all(workers.map((worker) => worker.close()));
      if (directory) await rm(await directory, { recursive: true, force: true });
    },
  };
}
