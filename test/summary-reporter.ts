// Prints the closing line CI reads ("N passed, N failed[, N skipped]"), alone
// on a line, after Vitest's own report. A module that failed to load, or an
// unhandled error, counts as a failure so it can never pass silently.
// Above it, the slowest test files with the time their tests and hooks took, and
// each project's span of the run (from its first file's start to its last
// file's end): the projects run in groups one after another (vitest.config.ts),
// and a file's own time counts neither its wait for a worker nor its loading, so
// the spans are what say where CI's time goes.
import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';

/** How many of the slowest files are listed. */
const slowestShown = 10;

export interface TimedModule {
  moduleId: string;
  project: { name: string };
  diagnostic(): { duration: number };
}

/** The `count` slowest files, slowest first, as lines: seconds, project and path relative to `root`. */
export function slowestModules(modules: ReadonlyArray<TimedModule>, count: number, root: string): string[] {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return [...modules]
    .map((m) => ({ m, ms: m.diagnostic().duration }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({ m, ms }) => {
      const path = m.moduleId.startsWith(prefix) ? m.moduleId.slice(prefix.length) : m.moduleId;
      return `${(ms / 1000).toFixed(1).padStart(7)} s  ${m.project.name.padEnd(11)} ${path}`;
    });
}

/** When a project's first file started and its last one ended, in ms since the run started. */
export interface ProjectSpan {
  start: number;
  end: number;
}

/** Records a file's start or end in its project's span. */
export function widenSpan(spans: Map<string, ProjectSpan>, project: string, at: number): void {
  const span = spans.get(project);
  if (!span) spans.set(project, { start: at, end: at });
  else {
    span.start = Math.min(span.start, at);
    span.end = Math.max(span.end, at);
  }
}

/** The spans as lines, in the order the projects started: from, to and how long, in seconds. */
export function spanLines(spans: ReadonlyMap<string, ProjectSpan>): string[] {
  const s = (ms: number) => (ms / 1000).toFixed(0);
  return [...spans]
    .sort((a, b) => a[1].start - b[1].start)
    .map(
      ([name, { start, end }]) =>
        `${name.padEnd(18)} ${s(start).padStart(5)} s to ${s(end).padStart(5)} s  (${s(end - start)} s)`,
    );
}

export default class SummaryReporter implements Reporter {
  private runStart = Date.now();
  private readonly spans = new Map<string, ProjectSpan>();

  onTestRunStart(): void {
    this.runStart = Date.now();
  }

  onTestModuleStart(module: TestModule): void {
    widenSpan(this.spans, module.project.name, Date.now() - this.runStart);
  }

  onTestModuleEnd(module: TestModule): void {
    widenSpan(this.spans, module.project.name, Date.now() - this.runStart);
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    // A run that failed outside any test (global setup, a crash) still counts as a failure.
    if (reason !== 'passed' && failed === 0) failed = 1;
    const slowest = slowestModules(testModules, slowestShown, process.cwd());
    if (slowest.length > 0)
      process.stdout.write(`\nslowest test files (tests and hooks):\n${slowest.join('\n')}\n`);
    if (this.spans.size > 0)
      process.stdout.write(
        `\neach project's span of the run (first file's start to last file's end):\n${spanLines(this.spans).join('\n')}\n`,
      );
    const line = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`\n${line}\n`);
  }
}
