// V8 flags a service's process needs, in one place for everything that launches it: package.json's
// scripts, the demo (services/demo/main.ts), the integration tests' processes and the benchmarks.
// node-flags.test.ts checks that package.json's scripts carry them.

export const nodeFlags = {
  /**
   * A poll allocates plenty that dies young (the body, its XML tree, the items, their events, encoded
   * records), 30 polls at a time. With V8's default young generation (16 MB semi-spaces) the poller
   * spent 12-14% of its CPU collecting garbage, and scavenges copied the polls still in flight again
   * and again; with 64 MB, 6-7% (bench:ingest, 3,000 feeds, --cpu-prof), for at most 96 MB more
   * memory.
   */
  poller: ['--max-semi-space-size=64'],
} as const satisfies Record<string, readonly string[]>;
