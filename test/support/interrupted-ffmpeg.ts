// A stand-in for `ffmpeg` that runs the real one and stops it with SIGTERM while it works, as a
// supervisor signalling the whole process group would: for tests of how a stopped ffmpeg is reported.
// The real ffmpeg reads endless silence instead of the caller's input, so it is still encoding (and
// never done) when the signal comes, whatever the machine's speed. On a busy machine the signal can come
// before ffmpeg has set up its handlers, and it dies of it rather than exiting 255: the stand-in then dies
// of it too, so its parent sees what it would see of the real ffmpeg (CI saw exit code 143 otherwise).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface InterruptedFfmpeg {
  /** Pass as `ffmpegPath`. */
  path: string;
  remove(): void;
}

export function interruptedFfmpeg(afterMs = 300): InterruptedFfmpeg {
  const directory = mkdtempSync(join(tmpdir(), 'interrupted-ffmpeg-'));
  const path = join(directory, 'ffmpeg');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'ffmpeg "$@" < /dev/zero &',
      'pid=$!',
      `sleep ${(afterMs / 1000).toFixed(3)}`,
      'kill -TERM "$pid"',
      'wait "$pid"',
      'status=$?',
      'if [ "$status" -eq 143 ]; then trap - TERM; kill -TERM $$; fi',
      'exit "$status"',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return { path, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
