// CPU seconds spent by the processes a phase keeps busy, read from /proc. On
// two shared cores the wall-clock rates move with whatever else runs; the CPU
// each process used says where a phase's time went (the bench's own Node
// process, ClickHouse, Kafka, a clickhouse-client child) and is steadier.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stackDir } from '../../support/stack-dirs.ts';

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime + stime of a process; with `children`, of its waited-for children instead (cutime + cstime). */
export function cpuSeconds(pid: number, children = false): number {
  try {
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const [user, system] = children ? [13, 14] : [11, 12];
    return (Number(fields[user]) + Number(fields[system])) / ticksPerSecond;
  } catch {
    return Number.NaN; // gone, or not ours to read
  }
}

/** The pid a stack component's pid file names, or undefined when the stack did not start it. */
export function stackPid(component: string): number | undefined {
  try {
    const pid = Number(readFileSync(`${stackDir()}/run/${component}.pid`, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export type CpuMeter = () => Record<string, number>;

/** Starts measuring; calling the result gives the CPU seconds each named process used since. */
export function meterCpu(processes: Record<string, () => number>): CpuMeter {
  const start = Object.fromEntries(Object.entries(processes).map(([name, read]) => [name, read()]));
  return () =>
    Object.fromEntries(Object.entries(processes).map(([name, read]) => [name, read() - start[name]!]));
}

export const describeCpu = (used: Record<string, number>, wallSeconds: number) =>
  Object.entries(used)
    .filter(([, s]) => Number.isFinite(s))
    .map(([name, s]) => `${name} ${s.toFixed(1)} s (${(s / wallSeconds).toFixed(2)} cores)`)
    .join(', ');
