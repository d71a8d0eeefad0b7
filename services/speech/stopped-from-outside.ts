// How a speech or audio tool's child process ended, when it did not end on its own. A process killed by
// a signal that asks it to stop (SIGTERM, SIGINT, SIGHUP, SIGQUIT) was stopped from outside: a supervisor
// that signals the whole process group or cgroup (systemd's default KillMode, `kill -- -pgid`, Ctrl-C in
// a terminal) reaches Festival, espeak-ng and ffmpeg at the same moment as the service. That is not the
// text's fault and not a crash worth a retry: the tool is unavailable, so the narration or documentary
// waits, records nothing and is made again after the restart. Crashes (SIGSEGV, SIGABRT), the OOM
// killer's and our own timeouts' SIGKILL stay what they were. This code never sends these signals itself.
import { SpeechUnavailableError } from './provider.ts';

const stopSignals: ReadonlySet<string> = new Set(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']);

/**
 * The error for `program` ended by `signal`, or null if it was not stopped from outside. `exit` is for a
 * program that catches the signals and exits with a code of its own for it (ffmpegStoppedFromOutside).
 */
export function stoppedFromOutside(
  program: string,
  signal: NodeJS.Signals | null,
  exit?: { code: number | null; interruptedCode: number },
): SpeechUnavailableError | null {
  const how =
    signal !== null && stopSignals.has(signal)
      ? `by ${signal}`
      : exit && exit.code === exit.interruptedCode
        ? `by a signal (exit code ${exit.code})`
        : null;
  if (how === null) return null;
  return new SpeechUnavailableError(
    `${program} was stopped ${how} from outside (the host or a supervisor stopping processes); ` +
      'the work is done again once it can run',
  );
}

/**
 * ffmpeg catches those signals, stops cleanly and exits with 255, the code it keeps for having been
 * interrupted (its own failures exit with 1): its `close` event has no signal.
 */
export const ffmpegStoppedFromOutside = (
  command: string,
  code: number | null,
  signal: NodeJS.Signals | null,
): SpeechUnavailableError | null => stoppedFromOutside(command, signal, { code, interruptedCode: 255 });
