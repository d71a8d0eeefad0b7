// Preloaded into the dispatcher under test when BENCH_DISPATCHER_PROFILE names a directory (node refuses
// --cpu-prof in NODE_OPTIONS, and the bench starts the dispatcher the way the integration tests do):
// samples its CPU from the start and writes <dir>/dispatcher-<pid>.cpuprofile when it exits, for Chrome
// DevTools or any .cpuprofile viewer. The in-process inspector answers synchronously, so the profile is
// written inside the 'exit' handler.
import { Session } from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const dir = process.env.BENCH_DISPATCHER_PROFILE;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.once('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `dispatcher-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
