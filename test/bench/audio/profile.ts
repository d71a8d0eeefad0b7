// Where a side's time goes: wall seconds and CPU seconds (this process and its children, cpu-tree.ts)
// per step, summed over calls. With one text at a time the steps do not overlap and the CPU of a step is
// exactly what it used; with more, steps overlap, the sums exceed the wall time and CPU cannot be told
// apart per step (it is then left out).
import { processTreeCpu } from './cpu-tree.ts';

export class Profile {
  readonly wall: Record<string, number> = {};
  readonly cpu: Record<string, number> = {};

  async time<T>(step: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    const cpu = processTreeCpu();
    try {
      return await work();
    } finally {
      this.wall[step] = (this.wall[step] ?? 0) + (performance.now() - start) / 1000;
      this.cpu[step] = (this.cpu[step] ?? 0) + processTreeCpu() - cpu;
    }
  }

  reset(): void {
    for (const record of [this.wall, this.cpu]) for (const step of Object.keys(record)) delete record[step];
  }

  describe(sequential: boolean): string {
    return Object.entries(this.wall)
      .map(
        ([step, s]) =>
          `${step} ${s.toFixed(1)} s${sequential ? ` (cpu ${(this.cpu[step] ?? 0).toFixed(1)} s)` : ''}`,
      )
      .join(', ');
  }
}
