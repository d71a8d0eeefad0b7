// Runs in each integration worker before every test file (setupFiles), before the file's modules load:
// claims a free worker slot and puts the file in that slot's topic namespace (./support/slots.ts); the
// processes the file starts inherit it through the environment. The slot is given back when the file
// ends.
//
// Slots are claimed with a file each (created exclusively), not taken from VITEST_POOL_ID: vitest gives
// a reused worker its old pool id while handing the same id to a new worker, so two files running at
// once could read the same id (seen in CI, where the unit files had run first in the same vitest: two
// dispatchers in one namespace delivered every alert twice).
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { integrationSlots, slotTopicPrefix } from './support/slots.ts';

// The global setup names a directory of the run's own; without it (a setup file run on its own), one
// per user of the machine.
const directory = process.env.INTEGRATION_SLOT_DIR ?? tmpdir();

/** True when no live process other than this one holds the slot file. */
function abandoned(file: string): boolean {
  const holder = Number(readFileSync(file, 'utf8'));
  // This process starting another file means it is done with the one it claimed for before.
  if (!Number.isInteger(holder) || holder === process.pid) return true;
  try {
    process.kill(holder, 0);
    return false;
  } catch {
    return true;
  }
}

function claimSlot(): { slot: number; file: string } {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    for (let slot = 1; slot <= integrationSlots; slot++) {
      const file = path.join(directory, `integration-slot-${slot}`);
      try {
        writeFileSync(file, String(process.pid), { flag: 'wx' });
        return { slot, file };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        try {
          if (abandoned(file)) unlinkSync(file);
        } catch {
          // given back meanwhile: try again
        }
      }
    }
    // Every slot busy (vitest runs no more files at once than there are slots, so only for a moment).
    if (attempt > 6_000)
      throw new Error(`no integration worker slot came free in ${directory} in 10 minutes`);
    Atomics.wait(pause, 0, 0, 100);
  }
}

const { slot, file } = claimSlot();
// The stack's own prefix, as this worker was started with (a file may have changed the environment).
process.env.INTEGRATION_BASE_TOPIC_PREFIX ??= process.env.TOPIC_PREFIX ?? '';
process.env.TOPIC_PREFIX = slotTopicPrefix(slot, process.env.INTEGRATION_BASE_TOPIC_PREFIX);

afterAll(() => {
  try {
    if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
  } catch {
    // already gone
  }
});
