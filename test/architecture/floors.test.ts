// The floors rule (.dependency-cruiser.mjs) run on a small tree made for the purpose: every import the
// rule must refuse is reported under its rule's name, and the imports it must allow are not.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** path -> source; every file exports something so that imports resolve. */
const tree: Record<string, string> = {
  // Allowed: own folder, a domain folder, runtime/.
  'services/api/server.ts':
    "import { ok } from './routes.ts';\nimport { fetchFeed } from '../feeds/fetch.ts';\nimport { log } from '../runtime/log.ts';\nexport const server = [ok, fetchFeed, log];\n",
  'services/api/routes.ts': 'export const ok = 1;\n',
  'services/feeds/fetch.ts': "import { log } from '../runtime/log.ts';\nexport const fetchFeed = log;\n",
  'services/runtime/log.ts': 'export const log = 1;\n',
  'services/poller/schedule.ts': 'export const schedule = 1;\n',
  'services/poller/main.ts': 'export const main = 1;\n',
  // Refused, one per rule.
  'services/api/polls.ts':
    "import { schedule } from '../poller/schedule.ts';\nexport const polls = schedule;\n",
  'services/runtime/feeds.ts':
    "import { fetchFeed } from '../feeds/fetch.ts';\nexport const x = fetchFeed;\n",
  'services/feeds/scheduled.ts':
    "import { schedule } from '../poller/schedule.ts';\nexport const y = schedule;\n",
  'services/api/stray.ts': "import { z } from '../gadgets/z.ts';\nexport const stray = z;\n",
  'services/gadgets/z.ts': 'export const z = 1;\n',
  'services/poller/start.ts': "import { main } from './main.ts';\nexport const start = main;\n",
  'services/poller/fixtures.ts':
    "import { fake } from '../../test/support/fake.ts';\nexport const f = fake;\n",
  'test/support/fake.ts': 'export const fake = 1;\n',
  // A test beside the code may use test support.
  'services/poller/schedule.test.ts':
    "import { fake } from '../../test/support/fake.ts';\nexport const t = fake;\n",
};

let workDir: string;
let report: string;
let exitCode: number;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'floors-'));
  for (const [path, source] of Object.entries(tree)) {
    mkdirSync(dirname(join(workDir, path)), { recursive: true });
    writeFileSync(join(workDir, path), source);
  }
  cpSync(join(root, '.dependency-cruiser.mjs'), join(workDir, '.dependency-cruiser.mjs'));
  writeFileSync(
    join(workDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'NodeNext', allowImportingTsExtensions: true, noEmit: true },
    }),
  );
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'services', 'test', '--config', '.dependency-cruiser.mjs', '--output-type', 'err'],
      { cwd: workDir },
    );
    report = stdout;
    exitCode = 0;
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    report = failed.stdout;
    exitCode = failed.code;
  }
}, 60_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const violations = () =>
  report
    .split('\n')
    .map((line) => /error (\S+): (\S+) → (\S+)/.exec(line))
    .filter((m) => m !== null)
    .map((m) => `${m[1]}: ${m[2]} -> ${m[3]}`)
    .sort();

describe('the floors rule', () => {
  it('fails the lint run when a floor is crossed', () => {
    expect(exitCode).not.toBe(0);
  });

  it('names each crossing under its rule, and nothing that is allowed', () => {
    expect(violations()).toEqual(
      [
        'domains-below-processes: services/feeds/scheduled.ts -> services/poller/schedule.ts',
        'every-folder-has-a-floor: services/api/stray.ts -> services/gadgets/z.ts',
        'no-entry-point-imports: services/poller/start.ts -> services/poller/main.ts',
        'no-process-into-another: services/api/polls.ts -> services/poller/schedule.ts',
        'no-process-into-another: services/feeds/scheduled.ts -> services/poller/schedule.ts',
        'production-code-without-tests: services/poller/fixtures.ts -> test/support/fake.ts',
        'runtime-is-the-ground-floor: services/runtime/feeds.ts -> services/feeds/fetch.ts',
      ].sort(),
    );
  });
});
