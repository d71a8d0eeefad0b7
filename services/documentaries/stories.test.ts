import { describe, expect, it } from 'vitest';
import {
  categoryMatch,
  citedWithin,
  cleanArticleText,
  halfRelevanceDays,
  pickStories,
  requiredTerms,
  topicCategory,
  type CandidateArticle,
  type Story,
} from './stories.ts';
import {
  allArticles,
  bbcBoeRates,
  bbcNvidiaCurbs,
  guardianBoeRates,
  interestRateArticles,
  now,
} from './testdata/articles.ts';

const articleIds = (stories: readonly Story[]) => stories.map((s) => s.articles.map((a) => a.id));
const leads = (stories: readonly Story[]) => stories.map((s) => s.lead.id);
const storyOf = (stories: readonly Story[], id: string) =>
  stories.find((s) => s.articles.some((a) => a.id === id));
const pick = (topic: string, articles: readonly CandidateArticle[] = allArticles, maxStories = 20) =>
  pickStories(topic, articles, { now, maxStories });

/** A plain article at `now`, for tests that need one difference between two of them. */
function candidate(id: string, fields: Partial<CandidateArticle>): CandidateArticle {
  return {
    id,
    title: '',
    summary: '',
    content: '',
    source: 'Daily Wire',
    sourceId: `source-${id}`,
    url: `https://news.example/${id}`,
    publishedAt: now,
    language: 'en',
    category: null,
    keywords: [],
    ...fields,
  };
}

/** Fisher-Yates with a fixed linear congruential generator: the same "random" orders every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe('pickStories: relevance', () => {
  it('ranks the stories about the topic best first and leaves the others out', () => {
    const stories = pick('interest rates');
    expect(leads(stories)).toEqual(['bbc-boe-rates', 'reuters-ecb-rates', 'ft-mortgage-rates']);
    const relevance = stories.map((s) => s.relevance);
    expect([...relevance].sort((a, b) => b - a)).toEqual(relevance);
    expect(new Set(relevance).size).toBe(relevance.length);
    const told = articleIds(stories).flat();
    expect(told).not.toContain('sky-cup-final');
    expect(told).not.toContain('bbc-nvidia-curbs');
  });

  it('reads the subject out of a topic phrased as a request', () => {
    const stories = pick('the week in semiconductors');
    const told = articleIds(stories).flat();
    expect(told).toEqual(expect.arrayContaining(['bbc-car-chip-shortage', 'guardian-intel-jobs']));
    // Every article of the week says "week"; none of these is about semiconductors.
    for (const id of ['bbc-boe-rates', 'sky-cup-final', 'bbc-storm-wales']) expect(told).not.toContain(id);
  });

  it('weighs the headline over the keywords, the keywords over the summary, the summary over the body', () => {
    // Four different stories, each naming trams in one place.
    const articles = [
      candidate('in-body', {
        title: 'Roadworks to close the high street',
        content: [
          'The high street will close for six weeks from March while water mains are replaced.',
          'Tram services will be diverted along Mill Road.',
          'Extra trams will run at weekends.',
        ].join('\n'),
      }),
      candidate('in-summary', {
        title: 'Transport strike called off',
        summary: 'Drivers on the tram network accepted a pay offer of 5% on Friday.',
      }),
      candidate('in-keywords', {
        title: 'City budget approved',
        summary: 'The budget includes money for new bus lanes and a depot.',
        keywords: ['tram depot', 'bus lane'],
      }),
      candidate('in-title', {
        title: 'Council backs tram line to the airport',
        summary: 'Councillors voted 30 to 12 in favour of the plan.',
      }),
    ];
    expect(leads(pickStories('tram', articles, { now, maxStories: 10 }))).toEqual([
      'in-title',
      'in-keywords',
      'in-summary',
      'in-body',
    ]);
  });

  it('favours articles with the phrase of a multi-word topic, then those with all of its words', () => {
    const articles = [
      candidate('phrase', {
        title: 'Lenders warn higher interest rates will squeeze households',
        summary: 'Banks said borrowers would struggle with higher interest rates next year.',
      }),
      candidate('apart', {
        title: 'Investor interest in bonds grows as rates on savings fall',
        summary: 'Banks said investors showed interest in bonds as rates on savings accounts fell.',
      }),
      candidate('one-word', {
        title: 'Mortgage rates fall for a third month',
        summary: 'Lenders cut the average two-year fixed mortgage deal to 4.5% in November.',
      }),
    ];
    const stories = pickStories('interest rates', articles, { now, maxStories: 10 });
    expect(leads(stories)).toEqual(['phrase', 'apart', 'one-word']);
  });

  it("leaves out an article that has one of a two-word topic's words, unless its headline names it", () => {
    const articles = [
      candidate('headline', { title: 'Mortgage rates fall for a third month' }),
      candidate('summary', {
        title: "India's rupee hits five-year high",
        summary: 'The exchange rate rose as exports grew; analysts said the rate would hold.',
        keywords: ['exchange rate', 'rupee'],
      }),
      candidate('keywords', { title: "Call centre users 'lose patience'", keywords: ['satisfaction rate'] }),
      candidate('both', {
        title: 'Banks hold steady',
        summary: 'Interest on savings and the rates of loans held.',
      }),
    ];
    expect(leads(pickStories('interest rates', articles, { now, maxStories: 10 }))).toEqual([
      'both',
      'headline',
    ]);
    // Two of three words are enough for a three-word topic.
    expect(requiredTerms(1)).toBe(1);
    expect(requiredTerms(2)).toBe(2);
    expect([3, 4, 5, 6].map(requiredTerms)).toEqual([2, 3, 4, 4]);
  });

  it('takes a topic that names a category as that category, its framing words aside', () => {
    expect(topicCategory('business')).toBe('business');
    expect(topicCategory('Tech news')).toBe('technology');
    expect(topicCategory('the week in sport')).toBe('sports');
    expect(topicCategory('Economy')).toBe('business');
    expect(topicCategory('sport funding')).toBeNull();
    expect(topicCategory('general')).toBeNull();
    expect(topicCategory('semiconductors')).toBeNull();
  });

  it("tells a category's news for a topic naming it, most of which never says the word", () => {
    const articles = [
      candidate('profit', { title: 'Retailer doubles its profit', category: 'business' }),
      candidate('says-it', { title: 'Small business owners fear new tax', category: 'politics' }),
      candidate('football', { title: 'United win the cup', category: 'sports' }),
    ];
    const stories = pickStories('business', articles, { now, maxStories: 10 });
    // The word in a headline still counts more than the category alone.
    expect(leads(stories)).toEqual(['says-it', 'profit']);
    expect(stories[1]!.relevance).toBeCloseTo(categoryMatch, 6);
  });

  it('prefers newer reports, gently: a week-old one counts half as much', () => {
    const title = 'Council backs new tram line for the city centre';
    const summary = 'The council voted on Tuesday to build a tram line through the city centre.';
    const weekOld = new Date(now.getTime() - halfRelevanceDays * 86_400_000);
    const articles = [
      candidate('old', { title, summary, publishedAt: weekOld }),
      candidate('new', { title, summary }),
    ];
    const stories = pickStories('tram line', articles, { now, maxStories: 10 });
    // A week apart they are two stories (a tram line voted twice), however alike.
    expect(leads(stories)).toEqual(['new', 'old']);
    expect(stories[1]!.relevance / stories[0]!.relevance).toBeCloseTo(0.5, 6);
  });

  it('drops articles that mention the topic only in passing', () => {
    // The Samsung article says once, in its body, that analysts expect Nvidia to test its chips.
    const told = articleIds(pick('Nvidia')).flat();
    expect(told).toContain('bbc-nvidia-curbs');
    expect(told).not.toContain('techcrunch-samsung-memory');
  });

  it('gives no stories when nothing is about the topic', () => {
    expect(pick('football')).toEqual([]);
    expect(pick('quantum computing')).toEqual([]);
    expect(pick('the and of it')).toEqual([]);
    expect(pick('interest rates', [])).toEqual([]);
  });

  it('finds an acronym that is a stop word in lower case ("US", "WHO"), and not the word', () => {
    const articles = [
      candidate('us-tariffs', {
        title: 'US raises tariffs on steel',
        summary: 'The US said the tariffs start in May.',
      }),
      candidate('told-us', {
        title: 'Shoppers told us prices rose',
        summary: 'They told us it would get worse.',
      }),
      candidate('who-warns', { title: 'WHO warns of measles rise', summary: 'The WHO said cases doubled.' }),
    ];
    expect(articleIds(pick('US', articles)).flat()).toEqual(['us-tariffs']);
    expect(articleIds(pick('WHO warnings', articles)).flat()).toEqual(['who-warns']);
  });

  it('leaves out stories below minRelevance', () => {
    const all = pick('interest rates');
    const threshold = (all[1]!.relevance + all[2]!.relevance) / 2;
    const some = pickStories('interest rates', allArticles, { now, maxStories: 10, minRelevance: threshold });
    expect(some).toEqual(all.slice(0, 2));
  });
});

describe('pickStories: topics written without spaces', () => {
  const chinese = [
    candidate('xinhua-chips', {
      title: '美国扩大半导体出口管制',
      summary: '美国商务部周二宣布扩大对华半导体出口管制，限制先进芯片和制造设备的出口。',
      language: 'zh',
    }),
    candidate('caixin-chips', {
      title: '半导体出口管制升级 芯片企业承压',
      summary: '新的半导体出口管制措施将影响多家芯片企业，分析人士认为供应链将加速调整。',
      source: 'Caixin',
      language: 'zh',
    }),
    candidate('xinhua-housing', {
      title: '多地出台房地产新政',
      summary: '多个城市放宽购房限制，以稳定房地产市场。',
      language: 'zh',
    }),
  ];

  it('finds the stories of a Chinese topic by its words', () => {
    const stories = pickStories('半导体出口管制', chinese, { now, maxStories: 5 });
    expect(articleIds(stories).flat().toSorted()).toEqual(['caixin-chips', 'xinhua-chips']);
    expect(pickStories('房地产', chinese, { now, maxStories: 5 }).map((s) => s.lead.id)).toEqual([
      'xinhua-housing',
    ]);
    expect(pickStories('足球', chinese, { now, maxStories: 5 })).toEqual([]);
  });

  it('finds a Japanese topic inside the sentences that hold it', () => {
    const japanese = [
      candidate('nhk-toyota', {
        title: 'トヨタ自動車、過去最高益を更新',
        summary: 'トヨタ自動車は8日、連結決算を発表した。ハイブリッド車の販売が好調だった。',
        language: 'ja',
      }),
      candidate('nhk-rates', {
        title: '日銀、マイナス金利を解除',
        summary: '17年ぶりの利上げとなる。',
        language: 'ja',
      }),
    ];
    expect(pickStories('ハイブリッド車', japanese, { now, maxStories: 5 }).map((s) => s.lead.id)).toEqual([
      'nhk-toyota',
    ]);
  });
});

describe('pickStories: one story, several reports', () => {
  it('folds reworded reports of one story from several outlets into one, the same outlet twice too', () => {
    const stories = pick('the week in semiconductors');
    const nvidia = storyOf(stories, 'bbc-nvidia-curbs')!;
    expect(nvidia.articles.map((a) => a.id).sort()).toEqual([
      'bbc-nvidia-curbs',
      'bbc-nvidia-shares',
      'reuters-nvidia-curbs',
    ]);
    expect(storyOf(stories, 'ft-tsmc-arizona')!.articles.map((a) => a.id)).toEqual([
      'ft-tsmc-arizona',
      'verge-tsmc-arizona',
    ]);
    expect(storyOf(pick('interest rates'), 'bbc-boe-rates')!.articles.map((a) => a.id)).toEqual([
      'bbc-boe-rates',
      'guardian-boe-rates',
    ]);
  });

  it('lets a report without the topic words join its story, never lead one', () => {
    // The Verge says "chips" and "fab", never "semiconductor".
    const stories = pick('the week in semiconductors');
    expect(leads(stories)).not.toContain('verge-tsmc-arizona');
    expect(storyOf(stories, 'verge-tsmc-arizona')!.lead.id).toBe('ft-tsmc-arizona');
  });

  it('keeps different stories on the same subject apart', () => {
    const stories = pick('the week in semiconductors');
    expect(stories).toHaveLength(9);
    const told = articleIds(stories).flat();
    expect(new Set(told).size).toBe(told.length);
    expect(storyOf(stories, 'ft-asml-orders')).not.toBe(storyOf(stories, 'ft-tsmc-arizona'));
    expect(storyOf(stories, 'reuters-sk-hynix')).not.toBe(storyOf(stories, 'ft-tsmc-arizona'));
    const rates = pick('interest rates');
    expect(storyOf(rates, 'reuters-ecb-rates')).not.toBe(storyOf(rates, 'bbc-boe-rates'));
  });

  it('leads with the most relevant report, not the newest, and follows with the others by relevance', () => {
    // The Guardian's is newer, but only the BBC's headline names interest rates.
    expect(guardianBoeRates.publishedAt.getTime()).toBeGreaterThan(bbcBoeRates.publishedAt.getTime());
    const boe = storyOf(pick('interest rates'), 'bbc-boe-rates')!;
    expect(boe.lead).toBe(bbcBoeRates);
    expect(boe.articles[0]).toBe(boe.lead);
    // For "chips" the BBC's first report and the Reuters one outrank the BBC's follow-up on shares.
    const nvidia = storyOf(pick('chips'), 'bbc-nvidia-curbs')!;
    expect(nvidia.articles.at(-1)!.id).toBe('bbc-nvidia-shares');
  });

  it('ranks a story more outlets covered above the same story from one', () => {
    const alone = pickStories('interest rates', [bbcBoeRates], { now, maxStories: 1 })[0]!;
    const both = pickStories('interest rates', [bbcBoeRates, guardianBoeRates], { now, maxStories: 1 })[0]!;
    expect(both.lead).toBe(alone.lead);
    expect(both.relevance).toBeGreaterThan(alone.relevance);
  });
});

describe('pickStories: order', () => {
  it('gives the same stories in the same order whatever order the articles come in', () => {
    const expected = pick('the week in semiconductors');
    for (const seed of [1, 2, 3, 4]) {
      expect(pick('the week in semiconductors', shuffled(allArticles, seed))).toEqual(expected);
    }
  });

  it('breaks ties by the newest lead, then by id', () => {
    const twin = (id: string, publishedAt = now) =>
      candidate(id, {
        title: 'Council backs new tram line',
        summary: 'The council voted to build a tram line.',
        publishedAt,
        sourceId: id,
      });
    // Identical reports are one story; the lead is the smaller id.
    const [story] = pickStories('tram', [twin('b'), twin('a')], { now, maxStories: 5 });
    expect(story!.articles.map((a) => a.id)).toEqual(['a', 'b']);
  });

  it('returns at most maxStories, the best ones', () => {
    const all = pick('the week in semiconductors');
    expect(pick('the week in semiconductors', allArticles, 3)).toEqual(all.slice(0, 3));
    expect(pick('the week in semiconductors', allArticles, 0)).toEqual([]);
  });

  it('does not mind articles that say nothing', () => {
    const empty = candidate('empty', { title: '', summary: '', content: '' });
    expect(leads(pick('interest rates', [empty, ...interestRateArticles]))).toEqual(
      leads(pick('interest rates', interestRateArticles)),
    );
  });
});

describe('cleanArticleText', () => {
  it('keeps the writing and drops markup, captions, credits and bylines', () => {
    const text = cleanArticleText(bbcNvidiaCurbs.content);
    expect(text).toContain(
      "close a gap that let Chinese firms buy slightly slower versions of the company's",
    );
    expect(text).toContain('called the move "economic bullying"');
    for (const furniture of ['<p>', '&#39;', 'Image caption', 'Getty Images', 'By Sarah Jones']) {
      expect(text).not.toContain(furniture);
    }
    expect(text.split('\n')).toHaveLength(9);
  });

  it('treats a line break in plain text as the end of a paragraph', () => {
    expect(cleanArticleText('First   line.\nReporting by David Chen\n\nSecond line.')).toBe(
      'First line.\nSecond line.',
    );
  });
});

describe('citedWithin', () => {
  /** A story of `n` reports, each from its own outlet unless `sameSource`, led by the first. */
  const story = (name: string, n: number, relevance: number, sameSource = false): Story => {
    const articles = Array.from({ length: n }, (_, k) =>
      candidate(`${name}${k}`, {
        title: sameSource ? `${name} headline` : `${name} headline ${k}`,
        sourceId: sameSource ? `source-${name}` : `source-${name}${k}`,
      }),
    );
    return { lead: articles[0]!, articles, relevance };
  };

  it('covers the top stories before a second outlet of any, then adds outlets in turn', () => {
    const stories = [story('a', 8, 3), story('b', 8, 2), story('c', 8, 1)];
    expect(articleIds(citedWithin(stories, 2))).toEqual([['a0'], ['b0']]);
    expect(articleIds(citedWithin(stories, 5))).toEqual([['a0', 'a1'], ['b0', 'b1'], ['c0']]);
    expect(articleIds(citedWithin([story('a', 2, 3), story('b', 6, 2)], 6))).toEqual([
      ['a0', 'a1'],
      ['b0', 'b1', 'b2', 'b3'],
    ]);
  });

  it('leaves out a report repeated by the same source under the same headline', () => {
    const repeated = story('a', 8, 3, true);
    expect(articleIds(citedWithin([repeated, story('b', 2, 2)], 8))).toEqual([['a0'], ['b0', 'b1']]);
  });
});
