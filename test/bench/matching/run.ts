// npm run bench:matching — how well the company matcher finds monitored companies in news (a
// benchmark, not a test).
//
// On the BBC sample corpus (100 articles) and a few articles written for it (./written-articles.ts:
// common-word names opening sentences, places and titles sharing a company's word), against
// labels.json (test/bench/matching/): 52 real companies registered as a customer would, 24 decoys
// (absent companies whose names are common words or parts of words in the corpus), and for each
// article the companies it really mentions.
// The matcher is compiled with 10,000 monitors (the labelled ones plus synthetic names) and given
// the organisations the embedded entity extractor finds, as the matcher service will be.
// Prints precision, recall and F1 over (article, monitor) pairs, every false positive and false
// negative with its sentence, the decoys, and throughput. Targets: precision >= 95%, recall >= 90%,
// no decoy matched, under 5 ms per article at p99. Exit code 0 either way.
// It runs in a namespace of its own, as every benchmark does (../support/bench-namespace.ts), though it
// touches neither Kafka, ClickHouse nor Redis: everything happens in this process.
import {
  compileMonitors,
  type Article,
  type CompanyMatcher,
  type Mention,
} from '../../../services/monitors/company-matcher.ts';
import { fold } from '../../../services/monitors/fold.ts';
import { createEmbeddedProvider } from '../../../services/intelligence/embedded/embedded-provider.ts';
import { loadLabels, type LabelledMonitor } from './labels.ts';
import { syntheticMonitors } from './synthetic-monitors.ts';
import { loadWrittenArticles } from './written-articles.ts';
import { loadCorpus, type CorpusArticle } from '../quality/corpus.ts';
import { percent, table } from '../quality/report.ts';

const log = (line = '') => process.stdout.write(`${line}\n`);
const minSeconds = Number(process.env.BENCH_SECONDS ?? 3);
const monitorCount = 10_000;
const targets = { precision: 0.95, recall: 0.9, p99Ms: 5 };

export default async function matching(): Promise<number> {
  const labels = await loadLabels();
  const bbc = await loadCorpus();
  const written = await loadWrittenArticles();
  const corpus = [...bbc, ...written];
  const byId = new Map(labels.monitors.map((m) => [m.id, m]));
  const decoys = labels.monitors.filter((m) => m.decoy);

  // The matcher service gets enriched articles: their organisations come from the embedded extractor.
  const provider = createEmbeddedProvider();
  const articles: { source: CorpusArticle; input: Article }[] = [];
  for (const a of corpus) {
    const { entities } = await provider.enrich(
      { title: a.title, text: a.body },
      { length: 'short', related: [] },
    );
    const organizations = entities.filter((e) => e.type === 'organization').map((e) => e.name);
    articles.push({ source: a, input: { title: a.title, text: a.body, organizations } });
  }

  const monitors = [
    ...labels.monitors.map((m) => ({ monitorId: m.id, company: m.company, aliases: m.aliases })),
    ...syntheticMonitors(monitorCount - labels.monitors.length),
  ];
  const compileStart = performance.now();
  const matcher = compileMonitors(monitors);
  const compileMs = performance.now() - compileStart;

  log(
    `Matching benchmark: ${articles.length} articles (${bbc.length} BBC, ${written.length} written for it); ` +
      `${matcher.size} monitors ` +
      `(${labels.monitors.length - decoys.length} labelled companies, ${decoys.length} decoys, ` +
      `${matcher.size - labels.monitors.length} synthetic); compiled in ${compileMs.toFixed(0)} ms`,
  );

  // ---- quality -----------------------------------------------------------------------------------

  interface Pair {
    article: (typeof articles)[number];
    monitor: LabelledMonitor;
  }

  interface Scored {
    truePositives: Pair[];
    falsePositives: Pair[];
    falseNegatives: Pair[];
    synthetic: string[];
  }

  function score(m: CompanyMatcher, withOrganizations: boolean, among = articles): Scored {
    const scored: Scored = { truePositives: [], falsePositives: [], falseNegatives: [], synthetic: [] };
    for (const article of among) {
      const input = withOrganizations ? article.input : { ...article.input, organizations: [] };
      const found = new Set<string>();
      for (const { monitorId } of m.match(input)) {
        const monitor = byId.get(monitorId);
        if (monitor) found.add(monitorId);
        else scored.synthetic.push(`${article.source.id} ${monitorId}`);
      }
      const expected = new Set(labels.mentions[article.source.id] ?? []);
      for (const id of found) {
        (expected.has(id) ? scored.truePositives : scored.falsePositives).push({
          article,
          monitor: byId.get(id)!,
        });
      }
      for (const id of expected) {
        if (!found.has(id)) scored.falseNegatives.push({ article, monitor: byId.get(id)! });
      }
    }
    return scored;
  }

  function figures(s: Scored): { precision: number; recall: number; f1: number } {
    const tp = s.truePositives.length;
    const precision = tp / Math.max(1, tp + s.falsePositives.length);
    const recall = tp / Math.max(1, tp + s.falseNegatives.length);
    return {
      precision,
      recall,
      f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    };
  }

  const withOrganizations = score(matcher, true);
  const withoutOrganizations = score(matcher, false);
  const main = figures(withOrganizations);
  const ofLabel = (keep: (label: string) => boolean) => articles.filter((a) => keep(a.source.label));
  const row = (name: string, s: Scored) => {
    const f = figures(s);
    return [
      name,
      s.truePositives.length,
      s.falsePositives.length,
      s.falseNegatives.length,
      percent(f.precision),
      percent(f.recall),
      percent(f.f1),
    ];
  };

  log();
  log('Quality over (article, monitor) pairs, labelled monitors only');
  log(
    table(
      ['organisations handed in', 'TP', 'FP', 'FN', 'precision', 'recall', 'F1'],
      [
        row('from the embedded extractor', withOrganizations),
        row('none', withoutOrganizations),
        row(
          'extractor; BBC articles only',
          score(
            matcher,
            true,
            ofLabel((l) => l !== 'written'),
          ),
        ),
        row(
          'extractor; written articles only',
          score(
            matcher,
            true,
            ofLabel((l) => l === 'written'),
          ),
        ),
      ],
    ),
  );

  const sentenceAt = (article: Article, field: 'title' | 'text', offset: number): string => {
    if (field === 'title') return article.title;
    let start = 0;
    for (const line of article.text.split('\n')) {
      if (offset < start + line.length + 1) return line.trim();
      start += line.length + 1;
    }
    return '';
  };
  const quote = (text: string, max = 150) => `"${text.length <= max ? text : `${text.slice(0, max - 1)}…`}"`;
  const mentionsOf = (pair: Pair): Mention[] =>
    matcher.explain(pair.article.input).filter((x) => x.monitorId === pair.monitor.id);

  log();
  log(`False positives (${withOrganizations.falsePositives.length})`);
  for (const pair of withOrganizations.falsePositives) {
    const accepted = mentionsOf(pair).filter((x) => x.accepted);
    log(`- ${pair.article.source.id} ${pair.monitor.id}${pair.monitor.decoy ? ' (decoy)' : ''}`);
    for (const x of accepted.slice(0, 3)) {
      log(`    "${x.term}", ${x.reason}: ${quote(sentenceAt(pair.article.input, x.field, x.start))}`);
    }
  }

  log();
  log(`False negatives (${withOrganizations.falseNegatives.length})`);
  for (const pair of withOrganizations.falseNegatives) {
    const rejected = mentionsOf(pair);
    log(`- ${pair.article.source.id} ${pair.monitor.id}`);
    for (const x of rejected.slice(0, 3)) {
      log(
        `    "${x.term}" rejected, ${x.reason}: ${quote(sentenceAt(pair.article.input, x.field, x.start))}`,
      );
    }
    if (rejected.length === 0) {
      log(`    none of its names is written in the article; nearest: ${quote(nearestLine(pair))}`);
    }
    if (pair.monitor.note) log(`    label note: ${pair.monitor.note}`);
  }

  /** The line sharing the longest prefix with one of the monitor's names: where a reader saw it. */
  function nearestLine(pair: Pair): string {
    const { title, text } = pair.article.input;
    const lines = [title, ...text.split('\n')].map((l) => l.trim()).filter(Boolean);
    const names = [pair.monitor.company, ...pair.monitor.aliases].map(fold);
    for (let length = 12; length >= 4; length -= 1) {
      for (const name of names) {
        const hit = lines.find((l) => name.length >= length && fold(l).includes(name.slice(0, length)));
        if (hit) return hit;
      }
    }
    return '(nothing similar)';
  }

  log();
  log('Decoys (must match nothing)');
  log(
    table(
      ['decoy', 'names', 'articles matched', 'in the corpus'],
      decoys.map((d) => {
        const hits = withOrganizations.falsePositives.filter((p) => p.monitor.id === d.id);
        return [
          d.id,
          [d.company, ...d.aliases].join(' / '),
          hits.length ? hits.map((p) => p.article.source.id).join(' ') : '-',
          d.note ?? '',
        ];
      }),
    ),
  );

  const decisions = new Map<string, number>();
  for (const article of articles) {
    for (const x of matcher.explain(article.input)) {
      if (!byId.has(x.monitorId) || x.reason === 'distinctive name' || x.reason === 'acronym in capitals')
        continue;
      const key = `${x.accepted ? 'accepted' : 'rejected'}: ${x.reason}`;
      decisions.set(key, (decisions.get(key) ?? 0) + 1);
    }
  }
  log();
  log('Ambiguous names (English words, very short): occurrences by decision');
  log(
    table(
      ['decision', 'occurrences'],
      [...decisions.entries()].sort(([a], [b]) => a.localeCompare(b)),
    ),
  );
  log(
    withOrganizations.synthetic.length
      ? `Synthetic monitors matched ${withOrganizations.synthetic.length} times: ${withOrganizations.synthetic.slice(0, 5).join('; ')}`
      : 'Synthetic monitors matched nothing.',
  );

  // ---- throughput --------------------------------------------------------------------------------

  const timings: number[] = [];
  const runStart = performance.now();
  // At least one pass over the articles, so BENCH_SECONDS=0 (a quick run) still has timings to show.
  do {
    for (const article of articles) {
      const start = performance.now();
      matcher.match(article.input);
      timings.push(performance.now() - start);
    }
  } while (performance.now() - runStart < minSeconds * 1000);
  const elapsed = (performance.now() - runStart) / 1000;
  timings.sort((a, b) => a - b);
  const quantile = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))]!;
  const mean = timings.reduce((s, t) => s + t, 0) / timings.length;

  log();
  log(`Throughput against ${matcher.size} monitors (one core, ${timings.length} articles matched)`);
  log(
    table(
      ['articles/s', 'mean ms', 'p50 ms', 'p99 ms', 'max ms'],
      [
        [
          (timings.length / elapsed).toFixed(0),
          mean.toFixed(3),
          quantile(0.5).toFixed(3),
          quantile(0.99).toFixed(3),
          timings.at(-1)!.toFixed(3),
        ],
      ],
    ),
  );

  // ---- verdict -----------------------------------------------------------------------------------

  const decoyHits = withOrganizations.falsePositives.filter((p) => p.monitor.decoy).length;
  const verdicts: [string, string, boolean][] = [
    [
      `precision >= ${percent(targets.precision)}`,
      percent(main.precision),
      main.precision >= targets.precision,
    ],
    [`recall >= ${percent(targets.recall)}`, percent(main.recall), main.recall >= targets.recall],
    ['no decoy matched', `${decoyHits} decoy matches`, decoyHits === 0],
    [
      `p99 < ${targets.p99Ms} ms per article`,
      `${quantile(0.99).toFixed(3)} ms`,
      quantile(0.99) < targets.p99Ms,
    ],
  ];
  log();
  log('Verdict');
  log(
    table(
      ['target', 'measured', 'met'],
      verdicts.map(([t, m, ok]) => [t, m, ok ? 'yes' : 'NO']),
    ),
  );
  log(
    verdicts.every(([, , ok]) => ok)
      ? 'PASS: every target met.'
      : `FAIL: ${verdicts.filter(([, , ok]) => !ok).length} of ${verdicts.length} targets missed.`,
  );
  return 0;
}
