// CPU seconds of this process and everything it started: its own, its children that have exited
// (espeak-ng, ffmpeg, text2wave: waited for, so counted in its cutime/cstime), and its children still
// running (the long-lived Festival processes). Sides of the bench run one after another, so the
// difference over one run is that run's CPU, whichever process spent it.
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSeconds } from '../api/cpu.ts';

function liveChildren(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) children.push(...list.split(/\s+/).map(Number));
    }
  } catch {
    // no /proc/<pid>/task/*/children on this kernel: running children are left out
  }
  return children;
}

export function processTreeCpu(pid = process.pid): number {
  const running = liveChildren(pid)
    .map((child) => cpuSeconds(child))
    .filter(Number.isFinite)
    .reduce((sum, s) => sum + s, 0);
  return cpuSeconds(pid) + cpuSeconds(pid, true) + running;
}
