// Loaded into the API process the fuzzer starts (node --expose-gc --import tsx --import this file):
// on a `measure-memory` message over the IPC channel it runs full garbage collections and answers with
// the process's memory, so the fuzzer compares live heap, not garbage not yet collected. The API itself
// knows nothing of it.
const collect = (globalThis as { gc?: () => void }).gc;

if (process.send && collect) {
  process.on('message', (message: { type?: string }) => {
    if (message?.type !== 'measure-memory') return;
    void (async () => {
      for (let i = 0; i < 4; i++) {
        collect();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const usage = process.memoryUsage();
      process.send?.({ type: 'memory', rssBytes: usage.rss, heapUsedBytes: usage.heapUsed });
    })();
  });
  // The channel must not keep the API alive once it is asked to stop.
  process.channel?.unref();
}
