// Key terms for a reader: the article's most salient names and keywords, each explained by the
// sentence that first uses it. The explanation is extractive on purpose: the embedded provider
// knows what the article says, not what the world knows, so it shows the term in use rather than
// invent a definition.
import type { Education, Entity } from '../provider.ts';
import type { Sentence } from './sentences.ts';

export const minKeyTerms = 5;
export const maxKeyTerms = 8;
/** Longer sentences are cut to a window around the term. */
const maxExcerpt = 200;

const typeLabels: Record<Entity['type'], string> = {
  person: 'A person',
  organization: 'An organisation',
  place: 'A place',
  other: 'A name',
};

export function keyTerms(
  entities: readonly Entity[],
  keywords: readonly string[],
  sentences: readonly Sentence[],
): Education['keyTerms'] {
  const terms: Education['keyTerms'] = [];
  const taken = new Set<string>();
  const add = (term: string, explain: (excerpt: string) => string) => {
    const key = term.toLowerCase();
    if (terms.length >= maxKeyTerms || taken.has(key)) return;
    const found = firstUse(term, sentences);
    if (!found) return;
    taken.add(key);
    terms.push({ term, explanation: explain(found) });
  };
  // Alternate names and keywords so that both kinds are explained, most salient first.
  const named = entities.filter((e) => e.type !== 'other' || e.mentions > 1);
  for (let i = 0; i < Math.max(named.length, keywords.length) && terms.length < maxKeyTerms; i += 1) {
    const entity = named[i];
    if (entity)
      add(
        entity.name,
        (excerpt) => `${typeLabels[entity.type]} named in the article, first in: "${excerpt}"`,
      );
    const keyword = keywords[i];
    if (keyword) add(keyword, (excerpt) => `Used in: "${excerpt}"`);
  }
  return terms;
}

/** The first sentence using the term (any inflection of a keyword's last word), cut to a window. */
function firstUse(term: string, sentences: readonly Sentence[]): string | null {
  const words = term.toLowerCase().split(/\s+/);
  for (const s of sentences) {
    const lemmas = s.tokens.map((t) => t.lemma);
    const normals = s.tokens.map((t) => t.normal);
    let at = -1;
    for (let i = 0; i + words.length <= s.tokens.length && at < 0; i += 1) {
      const matches = words.every((w, k) => normals[i + k] === w || lemmas[i + k] === w);
      if (matches) at = i;
    }
    if (at < 0 && !s.text.toLowerCase().includes(term.toLowerCase())) continue;
    return excerpt(s.text, term);
  }
  return null;
}

function excerpt(text: string, term: string): string {
  if (text.length <= maxExcerpt) return text;
  const at = Math.max(0, text.toLowerCase().indexOf(term.toLowerCase().split(' ')[0]!));
  const start = Math.max(0, Math.min(Math.round(at - maxExcerpt / 3), text.length - maxExcerpt));
  const end = start + maxExcerpt;
  let cut = text.slice(start, end);
  // Whole words only at the cut ends.
  if (start > 0) cut = cut.replace(/^\S*\s+/, '');
  if (end < text.length) cut = cut.replace(/\s+\S*$/, '');
  return `${start > 0 ? '…' : ''}${cut}${end < text.length ? '…' : ''}`;
}
