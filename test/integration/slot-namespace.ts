// Runs in each integration worker before every test file (setupFiles), before the file's modules load:
// puts the file in its worker slot's topic namespace (./support/slots.ts). The processes a file starts
// inherit it through the environment.
import { slotTopicPrefix } from './support/slots.ts';

const slot = Number(process.env.VITEST_POOL_ID ?? '1');
// The stack's own prefix, as this worker was started with (a file may have changed the environment).
process.env.INTEGRATION_BASE_TOPIC_PREFIX ??= process.env.TOPIC_PREFIX ?? '';
process.env.TOPIC_PREFIX = slotTopicPrefix(slot, process.env.INTEGRATION_BASE_TOPIC_PREFIX);
