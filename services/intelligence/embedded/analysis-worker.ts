// An analysis worker's entry (started by analysis-pool.ts through runtime/worker-loader.mjs): the
// embedded provider and extractTerms, on whatever texts the pool sends.
import { serveAnalyses } from './analysis-pool.ts';
import { createEmbeddedProvider, extractTerms } from './embedded-provider.ts';

serveAnalyses({ provider: createEmbeddedProvider(), termsOf: extractTerms });
