// How a speech engine's child process ended, when it did not end on its own. A process killed by a
// signal that asks it to stop (SIGTERM, SIGINT, SIGHUP, SIGQUIT) was stopped from outside: a supervisor
// that signals the whole process group or cgroup (systemd's default KillMode, `kill -- -pgid`, Ctrl-C in
// a terminal) reaches the engine at the same moment as the service. That is not the text's fault and
// not a crash worth a retry: the engine is unavailable, so the narration waits, records nothing and is
// made again after the restart. Crashes (SIGSEGV, SIGABRT), the OOM killer's and our own timeouts'
// SIGKILL stay what they were. This code never sends these signals itself.
import { SpeechUnavailableError } from '../provider.ts';

const stopSignals: ReadonlySet<string> = new Set(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT']);

/** The error for an engine process ended by `signal`, or null if that signal is not a request to stop. */
export function stoppedFromOutside(
  engine: string,
  signal: NodeJS.Signals | null,
): SpeechUnavailableError | null {
  if (signal === null || !stopSignals.has(signal)) return null;
  return new SpeechUnavailableError(
    `${engine} was stopped by ${signal} from outside (the host or a supervisor stopping processes); ` +
      'the text is spoken again once speech is back',
  );
}
