// The BBC sample corpus (services/demo/corpus/bbc, see its README): 100 articles in five labelled
// categories, each with a reference extractive summary.
import { readdir, readFile } from 'node:fs/promises';

export interface CorpusArticle {
  /** "business/001" */
  id: string;
  /** The BBC's label: business, entertainment, politics, sport, tech. */
  label: string;
  title: string;
  /** The body as the enricher would get it: its lines joined with newlines, sentences not marked. */
  body: string;
  /** Reference summary sentences (verbatim from the body, not necessarily in body order). */
  reference: string[];
}

export const defaultCorpusDirectory = new URL('../../../services/demo/corpus/bbc/', import.meta.url);

export async function loadCorpus(directory: URL = defaultCorpusDirectory): Promise<CorpusArticle[]> {
  const articles: CorpusArticle[] = [];
  const labels = (await readdir(new URL('article/', directory))).sort();
  for (const label of labels) {
    const files = (await readdir(new URL(`article/${label}/`, directory)))
      .filter((f) => f.endsWith('.txt'))
      .sort();
    for (const file of files) {
      const [title = '', ...body] = (
        await readFile(new URL(`article/${label}/${file}`, directory), 'utf8')
      ).split(/\r?\n/);
      const summary = await readFile(new URL(`summary/${label}/${file}`, directory), 'utf8');
      articles.push({
        id: `${label}/${file.replace(/\.txt$/, '')}`,
        label,
        title: title.trim(),
        body: body.join('\n').trim(),
        reference: summary
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean),
      });
    }
  }
  return articles;
}
