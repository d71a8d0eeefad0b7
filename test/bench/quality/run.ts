// npm run bench:quality — how good the embedded enrichment provider is (a benchmark, not a test).
//
// On the BBC sample corpus (100 articles in five labelled categories, each with a reference
// extractive summary):
// - summary quality: ROUGE-1/2/L F1 of the embedded summarizer against the references, beside the
//   lead baseline (the first N sentences) computed in the same run; both get N = the number of
//   sentences in the reference, and both read the body as the enricher gets it (lines joined with
//   newlines, sentences not marked);
// - category accuracy against the corpus labels, with a confusion table;
// - sentiment and entity examples to eyeball;
// - enrich() throughput, beside the time the lead baseline takes;
// - the longest texts the API takes, hostile shapes against news of that length (./longest-texts.ts).
// Targets: ROUGE-2 and ROUGE-L above lead, category accuracy above 80%, no 100,000-character text
// slower than 3 times news of that length. Exit code 0 either way.
// It runs in a namespace of its own, as every benchmark does (../support/bench-namespace.ts), though it
// touches neither Kafka, ClickHouse nor Redis: everything happens in this process.
import type { Category } from '../../../services/runtime/categories.ts';
import { parseArticle } from '../../../services/intelligence/embedded/article.ts';
import { categoryVotes } from '../../../services/intelligence/embedded/category.ts';
import { createEmbeddedProvider } from '../../../services/intelligence/embedded/embedded-provider.ts';
import { rougeL, rougeLsum, rougeN } from './rouge.ts';
import { sentenceValence } from '../../../services/intelligence/embedded/sentiment.ts';
import { splitSentences } from '../../../services/intelligence/embedded/sentences.ts';
import { summarizeToSentences, summaryTuning } from '../../../services/intelligence/embedded/summary.ts';
import { loadCorpus, type CorpusArticle } from './corpus.ts';
import { timeLongestTexts } from './longest-texts.ts';
import { maxTextCharacters } from '../../../services/api/intelligence/routes.ts';
import { fixed, mean, percent, table, throughput } from './report.ts';

const log = (line = '') => process.stdout.write(`${line}\n`);
const minSeconds = Number(process.env.BENCH_SECONDS ?? 5);

/** The BBC's labels in our vocabulary. */
const labelCategory: Record<string, Category> = {
  business: 'business',
  entertainment: 'entertainment',
  politics: 'politics',
  sport: 'sports',
  tech: 'technology',
};

export default async function quality(): Promise<number> {
  const corpus = await loadCorpus();
  log(
    `Quality benchmark: ${corpus.length} BBC articles, ${new Set(corpus.map((a) => a.label)).size} categories`,
  );

  // ---- summaries ---------------------------------------------------------------------------------

  interface Scores {
    rouge1: number;
    rouge2: number;
    rougeL: number;
    rougeLsum: number;
  }

  function score(summary: readonly string[], reference: readonly string[]): Scores {
    const candidate = summary.join('\n');
    const ref = reference.join('\n');
    return {
      rouge1: rougeN(candidate, ref, 1).f1,
      rouge2: rougeN(candidate, ref, 2).f1,
      rougeL: rougeL(candidate, ref).f1,
      rougeLsum: rougeLsum(summary, reference).f1,
    };
  }

  const lead = (a: CorpusArticle) => splitSentences(a.body).slice(0, a.reference.length);
  const embedded = (a: CorpusArticle) => summarizeToSentences(a.body, a.reference.length, { title: a.title });

  const leadScores = corpus.map((a) => score(lead(a), a.reference));
  const embeddedScores = corpus.map((a) => score(embedded(a), a.reference));
  const average = (scores: Scores[], key: keyof Scores) => mean(scores.map((s) => s[key]));
  const summaryRows = (['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const).map((key) => {
    const e = average(embeddedScores, key);
    const l = average(leadScores, key);
    return [key.replace('rouge', 'ROUGE-'), fixed(e), fixed(l), `${e - l >= 0 ? '+' : ''}${fixed(e - l)}`];
  });
  const wins = corpus.filter((_, i) => embeddedScores[i]!.rouge2 > leadScores[i]!.rouge2).length;

  log();
  log('Summaries: F1 against the reference, averaged over articles (N = reference sentences)');
  log(table(['metric', 'embedded', 'lead', 'difference'], summaryRows));
  log(`ROUGE-L is LCS over the whole summary; ROUGE-Lsum the union LCS per reference sentence (Lin 2004),`);
  log(`which does not punish order (the references are not in text order).`);
  log(`Embedded beats lead on ROUGE-2 in ${wins} of ${corpus.length} articles.`);
  log(`Method knobs: ${JSON.stringify(summaryTuning)}`);

  // ---- categories --------------------------------------------------------------------------------

  const predictions = corpus.map((a) => {
    const { title, sentences } = parseArticle({ title: a.title, text: a.body });
    return categoryVotes(title, sentences).category;
  });
  const correct = corpus.filter((a, i) => predictions[i] === labelCategory[a.label]).length;
  const accuracy = correct / corpus.length;
  const predicted = [...new Set(predictions.map((p) => p ?? 'null'))].sort();
  const labels = Object.keys(labelCategory);
  const confusion = labels.map((label) => {
    const row = corpus.map((a, i) => [a.label, predictions[i] ?? 'null']).filter(([l]) => l === label);
    return [
      `${label} -> ${labelCategory[label]}`,
      ...predicted.map((p) => row.filter(([, q]) => q === p).length || '.'),
      percent(row.filter(([, q]) => q === labelCategory[label]).length / row.length),
    ];
  });

  log();
  log(`Category accuracy: ${percent(accuracy)} (${correct}/${corpus.length})`);
  log('Confusion (rows: corpus label -> expected; columns: predicted)');
  log(table(['label', ...predicted, 'recall'], confusion));
  const misses = corpus
    .map((a, i) => ({ a, p: predictions[i] }))
    .filter(({ a, p }) => p !== labelCategory[a.label])
    .map(({ a, p }) => `${a.id} "${a.title}" -> ${p ?? 'null'}`);
  if (misses.length) log(`Misclassified: ${misses.join('; ')}`);

  // ---- sentiment and entities --------------------------------------------------------------------

  const provider = createEmbeddedProvider();
  const examples = ['business/001', 'politics/001', 'sport/001'].flatMap((id) =>
    corpus.filter((a) => a.id === id),
  );
  log();
  log('Sentiment and entity examples');
  for (const a of examples) {
    const enrichment = await provider.enrich(
      { title: a.title, text: a.body },
      { length: 'medium', related: [] },
    );
    const { sentences } = parseArticle({ title: a.title, text: a.body });
    const byValence = sentences
      .map((s) => ({ s, v: sentenceValence(s) }))
      .filter(({ v }) => v !== 0)
      .sort((x, y) => y.v - x.v);
    const most = byValence[0];
    const least = byValence.at(-1);
    log(`- ${a.id} "${a.title}"`);
    log(
      `  sentiment ${enrichment.sentiment.label} (${enrichment.sentiment.score}); category ${enrichment.category}`,
    );
    if (most && most.v > 0) log(`  most positive (+${most.v.toFixed(1)}): ${clip(most.s.text)}`);
    if (least && least.v < 0) log(`  most negative (${least.v.toFixed(1)}): ${clip(least.s.text)}`);
    log(
      `  entities: ${enrichment.entities
        .slice(0, 8)
        .map((e) => `${e.name} [${e.type}, ${e.salience}, ×${e.mentions}]`)
        .join('; ')}`,
    );
    log(`  keywords: ${enrichment.keywords.join(', ')}`);
  }

  function clip(text: string, max = 110): string {
    return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
  }

  // ---- throughput --------------------------------------------------------------------------------

  const inputs = corpus.map((a) => ({ title: a.title, text: a.body }));
  const enrichRate = await throughput(corpus.length, minSeconds, async () => {
    for (const input of inputs) await provider.enrich(input, { length: 'medium', related: [] });
  });
  const summaryRate = await throughput(corpus.length, Math.min(minSeconds, 2), () => {
    for (const a of corpus) embedded(a);
  });
  const leadRate = await throughput(corpus.length, Math.min(minSeconds, 2), () => {
    for (const a of corpus) lead(a);
  });

  log();
  log('Throughput (one core)');
  log(
    table(
      ['method', 'articles/s', 'ms/article', 'rounds'],
      [
        [
          'enrich() (everything)',
          enrichRate.perSecond.toFixed(1),
          (1000 / enrichRate.perSecond).toFixed(2),
          enrichRate.rounds,
        ],
        [
          'embedded summary only',
          summaryRate.perSecond.toFixed(1),
          (1000 / summaryRate.perSecond).toFixed(2),
          summaryRate.rounds,
        ],
        [
          'lead baseline (split + first N)',
          leadRate.perSecond.toFixed(1),
          (1000 / leadRate.perSecond).toFixed(2),
          leadRate.rounds,
        ],
      ],
    ),
  );

  const longest = await timeLongestTexts(corpus);
  log();
  log(
    `The longest texts the API takes (${maxTextCharacters.toLocaleString('en-US')} characters): enrich + educate`,
  );
  log(table(['text', 'ms', 'x news'], longest.rows));

  // ---- verdict -----------------------------------------------------------------------------------

  const r2 = average(embeddedScores, 'rouge2');
  const rl = average(embeddedScores, 'rougeL');
  const verdicts: [string, string, boolean][] = [
    [
      'ROUGE-2 > lead',
      `${fixed(r2)} vs ${fixed(average(leadScores, 'rouge2'))}`,
      r2 > average(leadScores, 'rouge2'),
    ],
    [
      'ROUGE-L > lead',
      `${fixed(rl)} vs ${fixed(average(leadScores, 'rougeL'))}`,
      rl > average(leadScores, 'rougeL'),
    ],
    ['category accuracy > 80%', percent(accuracy), accuracy > 0.8],
    [
      'longest texts <= 3 x news',
      `${longest.worstRatio.toFixed(2)} (${longest.worstShape})`,
      longest.worstRatio <= 3,
    ],
  ];
  log();
  log('Verdict');
  log(
    table(
      ['target', 'measured', 'result'],
      verdicts.map(([t, m, ok]) => [t, m, ok ? 'PASS' : 'FAIL']),
    ),
  );
  log(verdicts.every(([, , ok]) => ok) ? 'All targets met.' : 'Some targets NOT met.');
  return 0;
}
