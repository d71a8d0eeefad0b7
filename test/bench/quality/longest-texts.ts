// The longest texts /v1/analyze and /api/v1/summarize take, analysed as the API does (enrich, then
// educate) in this process: news of that length (the corpus's bodies one after another) is the
// baseline, and each hostile shape of text is timed against it. Each of these shapes once took time
// that grew with the square of its length (one 100,000-character word over a minute, a run of Chinese
// or Thai in ICU's segmenter, thousands of short sentences in the summary's graph), holding the API's
// event loop the while. Target: none slower than 3 times the news.
import { loadavg } from 'node:os';
import { createEmbeddedProvider } from '../../../services/intelligence/embedded/embedded-provider.ts';
import { maxTextCharacters } from '../../../services/api/intelligence/routes.ts';
import type { CorpusArticle } from './corpus.ts';

export interface LongestTexts {
  rows: string[][];
  /** The slowest shape's time over the news's. */
  worstRatio: number;
  worstShape: string;
}

const filled = (unit: string) =>
  unit.repeat(Math.ceil(maxTextCharacters / unit.length)).slice(0, maxTextCharacters);

export async function timeLongestTexts(corpus: readonly CorpusArticle[]): Promise<LongestTexts> {
  const provider = createEmbeddedProvider();
  const news = filled(corpus.map((a) => a.body).join('\n'));
  const shapes: [string, string][] = [
    ['news (the corpus, one body after another)', news],
    ['one word', filled('a')],
    ['one word of capitals and small letters', filled('Ab')],
    ['initials, "A. A. A."', filled('A. ')],
    ['thousands of short sentences', filled('Ab cD. ')],
    ['one sentence over and over', filled('The Bank of England raised rates, said Andrew Bailey. ')],
    ['one run of Chinese', filled('中国半导体产业发展迅速')],
    ['one run of Thai', filled('ประเทศไทย')],
    ['one run of Cyrillic', filled('я')],
    ['words of one letter', filled('a ')],
  ];
  const analyse = async (text: string) => {
    const started = performance.now();
    await provider.enrich({ title: '', text }, { length: 'medium', related: [] });
    await provider.educate({ title: '', text }, {});
    return performance.now() - started;
  };
  await analyse(news.slice(0, 5_000)); // warm: the models load once
  const times = new Map<string, number>();
  for (const [shape, text] of shapes) times.set(shape, await analyse(text));
  const baseline = times.get(shapes[0]![0])!;
  let worstRatio = 0;
  let worstShape = '';
  const rows = shapes.map(([shape]) => {
    const ms = times.get(shape)!;
    const ratio = ms / baseline;
    if (shape !== shapes[0]![0] && ratio > worstRatio) [worstRatio, worstShape] = [ratio, shape];
    return [shape, ms.toFixed(0), ratio.toFixed(2)];
  });
  rows.push([
    'load average (1, 5, 15 min) after',
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
    '',
  ]);
  return { rows, worstRatio, worstShape };
}
