// What a benchmark created is removed at the end, also on failure and on Ctrl-C: tasks registered with
// onCleanup run once, newest first; a task that fails is reported and the others still run.

export interface CleanUp {
  onCleanup(name: string, task: () => Promise<unknown>): void;
  cleanUp(): Promise<void>;
  /** True once a stop signal arrived: what fails after it is not worth reporting. */
  readonly interrupted: boolean;
}

export function cleanUpOnExit(bench: string): CleanUp {
  const tasks: { name: string; task: () => Promise<unknown> }[] = [];
  let cleaning: Promise<void> | undefined;
  let interrupted = false;
  const cleanUp = () => {
    cleaning ??= (async () => {
      for (const { name, task } of tasks.reverse()) {
        try {
          await task();
        } catch (error) {
          process.stderr.write(`${bench}: clean-up "${name}" failed: ${(error as Error).message}\n`);
        }
      }
    })();
    return cleaning;
  };
  // `on`, not `once`: Ctrl-C reaches us twice under the tsx CLI (the terminal's SIGINT, then the one
  // tsx relays), and a second signal with no listener left would end the process mid-clean-up.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      if (cleaning) return;
      interrupted = true;
      process.stderr.write(`${bench}: ${signal}, cleaning up\n`);
      void cleanUp().finally(() => process.exit(code));
    });
  }
  return {
    onCleanup: (name, task) => void tasks.push({ name, task }),
    cleanUp,
    get interrupted() {
      return interrupted;
    },
  };
}
