// The English pipeline every embedded capability reads text through: wink-nlp with its small web
// model (tokens, sentence boundaries, part of speech, negation scope, stems and lemmas). The model
// ships inside its npm package, so nothing is downloaded at run time. Loaded on first use:
// importing the provider for its types should not cost the model's start-up.
import winkNLP from 'wink-nlp';
import type { WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

let pipeline: WinkMethods | null = null;

export function english(): WinkMethods {
  // Left out of the pipe, to keep parsing fast: 'ner' (its entities are dates and amounts; ours come
  // from entities.ts) and 'sentiment' (sentiment.ts scores with AFINN itself, per word).
  pipeline ??= winkNLP(model, ['sbd', 'negation', 'pos']);
  return pipeline;
}
