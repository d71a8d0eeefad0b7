// V8 flags and glibc malloc settings a service's process needs, in one place for everything that
// launches it: package.json's scripts, the demo (services/demo/main.ts), the chaos fleet, the integration
// tests' processes and the benchmarks. node-flags.test.ts checks that package.json's scripts (and, for the
// malloc settings, the Dockerfile) carry them.

export const nodeFlags = {
  /**
   * A poll allocates plenty that dies young (the body, its XML tree, the items, their events, encoded
   * records), 30 polls at a time. With V8's default young generation (16 MB semi-spaces) the poller
   * spent 12-14% of its CPU collecting garbage, and scavenges copied the polls still in flight again
   * and again; with 64 MB, 6-7% (bench:ingest, 3,000 feeds, --cpu-prof), for at most 96 MB more
   * memory.
   */
  poller: ['--max-semi-space-size=64'],
  /**
   * A delivery's objects live as long as its POST is in flight, 16 at a time, so many outlive a scavenge and
   * are promoted, into old-space pages the kernel faults in and zeroes anew; V8's young generation starts
   * at 1 MB and grows. Fixed at 64 MB semi-spaces: 0.191-0.200 ms of the dispatcher's CPU a delivery
   * against 0.233-0.242 without (bench:webhooks, 20,000 deliveries, three runs each, docs/benchmarks.md),
   * for at most 192 MB more memory. A 16 MB minimum alone was no better (0.251-0.277).
   */
  dispatcher: ['--min-semi-space-size=64', '--max-semi-space-size=64'],
} as const satisfies Record<string, readonly string[]>;

/** The V8 flags a service's process starts with (nodeFlags), none for most. */
export function nodeFlagsOf(service: string): readonly string[] {
  return Object.hasOwn(nodeFlags, service) ? nodeFlags[service as keyof typeof nodeFlags] : [];
}

/**
 * glibc's malloc settings for the projector, which moves large buffers: fetch responses of up to 50 MiB that
 * KafkaJS joins into one buffer, and RowBinary bodies of hundreds of MiB. GLIBC_TUNABLES is read when the
 * process starts, so every launcher puts it in the child's environment (package.json's scripts, the
 * Dockerfile, the demo, the chaos fleet, the integration tests' processes): serviceEnv.
 *
 * Why: by default glibc maps every allocation over 128 KiB to fresh pages and unmaps it when freed, and hands
 * freed memory at the top of its heap back to the system at once, so every page of every such buffer is
 * faulted in and zeroed by the kernel again. A `perf` profile of the projection (bench:api, 300,000 articles,
 * two vCPUs) found a quarter of the bench process's CPU in the kernel: 500,000 page faults in 30 s, from
 * KafkaJS's `Buffer.concat` of fetch responses (36%), the RowBinary bodies (18%) and socket reads (11%).
 * - `hugetlb=1`: the regions malloc maps are advised for transparent huge pages (where the kernel's THP mode
 *   is `madvise`; with `always` it changes nothing, with `never` it is ignored): one fault, and one zeroing,
 *   per 2 MiB instead of per 4 KiB;
 * - `mmap_threshold` 32 MiB (glibc's most): buffers up to 32 MiB come from the heap, and are used again
 *   once freed rather than mapped anew;
 * - `trim_threshold` 512 MiB: the heap keeps up to that much freed memory for the next buffers.
 * Measured (docs/benchmarks.md): at 100,000 articles the bench process's CPU an article 67 and 78 µs against
 * 85 and 88 without, a third of the page faults. The dispatcher and the poller were measured with them too,
 * and did not move (the dispatcher 0.208-0.213 ms of CPU a delivery with and without; the poller 18.4 and
 * 17.5 s for 160,000 articles): their buffers are small, and their faults come from V8's own heap.
 */
export const mallocTunables =
  'glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=536870912';

/** The services launched with mallocTunables. */
export const mallocTunedServices = ['projector'] as const;

/**
 * `env` with mallocTunables in GLIBC_TUNABLES. Tunables already there are kept after ours, so an
 * operator's own setting of one of them wins (glibc applies them in order).
 */
export function withMallocTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = env.GLIBC_TUNABLES;
  if (own?.includes(mallocTunables)) return env;
  return { ...env, GLIBC_TUNABLES: own ? `${mallocTunables}:${own}` : mallocTunables };
}

/** The environment a service's process starts with: `env`, with mallocTunables for mallocTunedServices. */
export function serviceEnv(service: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return (mallocTunedServices as readonly string[]).includes(service) ? withMallocTunables(env) : env;
}
