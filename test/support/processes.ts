// Whether a process still runs, for tests that stop processes and must see them gone.
import { readFileSync } from 'node:fs';

/**
 * True while `pid` runs. An exited process whose parent has not collected it yet (a zombie, state Z in
 * /proc) no longer runs: orphans wait in that state until init gets round to them.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command name, which is in parentheses and may itself contain spaces.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc here: the signal check has to do
  }
}
