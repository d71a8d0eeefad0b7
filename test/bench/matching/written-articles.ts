// Articles written for the matching benchmark (./articles/NNN.txt, each laid out as the BBC corpus's:
// the title on the first line, the body after it), for what the BBC sample lacks: companies whose
// names are common words named only at the start of sentences ("Next reported...", "Orange said..."),
// and the places, titles and colours that share their words ("the Amazon rainforest", "Prince of
// Orange", "Orange is the colour of the season"). Real companies, invented events; labelled in
// labels.json as "written/NNN".
import { readdir, readFile } from 'node:fs/promises';
import type { CorpusArticle } from '../quality/corpus.ts';

export async function loadWrittenArticles(
  directory = new URL('./articles/', import.meta.url),
): Promise<CorpusArticle[]> {
  const files = (await readdir(directory)).filter((f) => f.endsWith('.txt')).sort();
  return Promise.all(
    files.map(async (file) => {
      const [title = '', ...body] = (await readFile(new URL(file, directory), 'utf8')).split(/\r?\n/);
      return {
        id: `written/${file.replace(/\.txt$/, '')}`,
        label: 'written',
        title: title.trim(),
        body: body.join('\n').trim(),
        reference: [],
      };
    }),
  );
}
