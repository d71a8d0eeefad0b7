// An analysis worker for analysis-pool.test.ts: the real embedded provider, except that a text starting
// with "HANG" never finishes its enrichment (the pool must stop it).
import { serveAnalyses } from './analysis-pool.ts';
import { createEmbeddedProvider, extractTerms } from './embedded-provider.ts';

const provider = createEmbeddedProvider();
serveAnalyses({
  provider: {
    ...provider,
    enrich: (article, options) => {
      if (article.text.startsWith('HANG'))
        for (;;) {
          // never answers
        }
      return provider.enrich(article, options);
    },
  },
  termsOf: extractTerms,
});
