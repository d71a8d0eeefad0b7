import { describe, expect, it } from 'vitest';
import { splitSentences } from '../intelligence/embedded/sentences.ts';
import {
  checkScript,
  documentaryLengths,
  periodInWords,
  scriptFromParts,
  targetSeconds,
  writeScript,
  type DocumentaryLength,
  type Script,
  type ScriptSegment,
} from './script.ts';
import { cleanArticleText, pickStories, type CandidateArticle, type Story } from './stories.ts';
import { allArticles, now, reutersEcbRates, weekAgo } from './testdata/articles.ts';

const semiconductors = pickStories('the week in semiconductors', allArticles, { now, maxStories: 20 });
const rates = pickStories('interest rates', allArticles, { now, maxStories: 20 });
/** More than a long documentary can say: twelve stories, some from several outlets. */
const richStories = [...semiconductors, ...rates];

const script = (stories: readonly Story[], length: DocumentaryLength) =>
  writeScript({ topic: 'the week in semiconductors', from: weekAgo, to: now, stories, length });
const storySegments = (s: Script) => s.segments.filter((segment) => segment.kind === 'story');
const words = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
const spokenWords = (s: Script) =>
  s.segments.flatMap((segment) => segment.sentences).reduce((sum, sentence) => sum + words(sentence), 0);
const budget = (length: DocumentaryLength, wordsPerMinute = 150) =>
  (targetSeconds[length] * wordsPerMinute) / 60;

/** The framing sentences a story segment may have besides its articles' own. */
const framing = [
  /^Here is what .+ reported\.$/,
  /^.+ reported the following\.$/,
  /^This report comes from .+\.$/,
  /^There was more from .+\.$/,
  /^The story was also covered by .+\.$/,
];

/** Every sentence the article has, as a reader of it would split it. */
function sentencesOf(article: CandidateArticle): string[] {
  return [article.title, article.summary, article.content].flatMap((text) =>
    splitSentences(cleanArticleText(text)),
  );
}

function withSegment(s: Script, index: number, change: (segment: ScriptSegment) => ScriptSegment): Script {
  const segments = s.segments.map((segment, i) => (i === index ? change(segment) : segment));
  const count = segments.flatMap((segment) => segment.sentences).reduce((sum, x) => sum + words(x), 0);
  return { ...s, segments, wordCount: count };
}

describe('writeScript: length', () => {
  it('targets two, five and ten minutes of speech', () => {
    expect(documentaryLengths.map((length) => targetSeconds[length])).toEqual([120, 300, 600]);
  });

  it.each(documentaryLengths)(
    'fills the %s budget with a rich set of stories, never more than 15%% over',
    (length) => {
      const s = script(richStories, length);
      expect(s.wordCount).toBe(spokenWords(s));
      expect(s.wordCount).toBeLessThanOrEqual(budget(length) * 1.15);
      expect(s.wordCount).toBeGreaterThanOrEqual(budget(length) * 0.85);
    },
  );

  it('tells more stories, and more of each, as the length grows', () => {
    const [short, medium, long] = documentaryLengths.map((length) => script(richStories, length));
    const stories = [short, medium, long].map((s) => storySegments(s!).length);
    expect(stories[0]).toBeLessThan(stories[1]!);
    expect(stories[1]).toBeLessThan(stories[2]!);
    const perStory = [short, medium, long].map((s) => {
      const segments = storySegments(s!);
      return segments.reduce((sum, segment) => sum + segment.sentences.length, 0) / segments.length;
    });
    expect(perStory[0]).toBeLessThan(perStory[1]!);
    expect(perStory[1]).toBeLessThan(perStory[2]!);
  });

  it('follows the pace it is given', () => {
    const slow = writeScript({
      topic: 'chips',
      from: weekAgo,
      to: now,
      stories: richStories,
      length: 'medium',
      wordsPerMinute: 100,
    });
    expect(slow.wordCount).toBeLessThanOrEqual(budget('medium', 100) * 1.15);
    expect(slow.wordCount).toBeGreaterThanOrEqual(budget('medium', 100) * 0.85);
    expect(() =>
      writeScript({
        topic: 'chips',
        from: weekAgo,
        to: now,
        stories: rates,
        length: 'short',
        wordsPerMinute: 0,
      }),
    ).toThrow(RangeError);
  });

  it('is shorter, not padded, when the articles say little', () => {
    const ecb = pickStories('interest rates', [reutersEcbRates], { now, maxStories: 5 });
    const s = script(ecb, 'long');
    expect(s.segments.map((segment) => segment.kind)).toEqual(['intro', 'story', 'outro']);
    expect(s.wordCount).toBeLessThan(budget('long') / 10);
    const [story] = storySegments(s);
    expect(story!.sentences).toEqual(['Here is what Reuters reported.', reutersEcbRates.summary]);
  });
});

describe('writeScript: structure', () => {
  it.each(documentaryLengths)(
    'puts the %s segments in the order intro, story, (transition, story)*, outro',
    (length) => {
      const kinds = script(richStories, length).segments.map((segment) => segment.kind);
      expect(kinds[0]).toBe('intro');
      expect(kinds.at(-1)).toBe('outro');
      const middle = kinds.slice(1, -1);
      middle.forEach((kind, i) => expect(kind).toBe(i % 2 === 0 ? 'story' : 'transition'));
      expect(middle.at(-1)).toBe('story');
    },
  );

  it('names the topic, the period and what was gathered in the intro', () => {
    const s = script(semiconductors, 'medium');
    const [intro] = s.segments;
    expect(intro!.title).toBe('Introduction');
    const spoken = intro!.sentences.join(' ');
    expect(spoken).toContain('the week in semiconductors');
    expect(spoken).toContain('from 17 to 24 November 2026');
    const told = storySegments(s);
    const byId = new Map(allArticles.map((a) => [a.id, a]));
    const sources = new Set(told.flatMap((t) => t.articleIds.map((id) => byId.get(id)!.source)));
    const inWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    expect(spoken).toContain(`${inWords[told.length]} stories from ${inWords[sources.size]} sources`);
    expect(s.title).toBe('The week in semiconductors, 17 to 24 November 2026');
  });

  it('titles each story with its lead headline, cites all its articles and names all its outlets', () => {
    const s = script(richStories, 'short');
    for (const segment of storySegments(s)) {
      const story = richStories.find((x) => x.lead.title === segment.title)!;
      expect(segment.articleIds).toEqual(story.articles.map((a) => a.id));
      for (const article of story.articles) expect(segment.sentences.join(' ')).toContain(article.source);
    }
    const multi = storySegments(s).find((segment) => segment.articleIds.includes('reuters-nvidia-curbs'))!;
    expect(multi.sentences.at(-1)).toBe('The story was also covered by Reuters.');
  });

  it('varies the transitions and keeps them to framing words', () => {
    const transitions = script(richStories, 'long')
      .segments.filter((segment) => segment.kind === 'transition')
      .map((segment) => segment.sentences.join(' '));
    expect(transitions.length).toBeGreaterThan(3);
    transitions.slice(1).forEach((t, i) => expect(t).not.toBe(transitions[i]));
    expect(transitions.at(-1)).toBe('Finally, one more story.');
  });

  it('ends naming every source, citing every article', () => {
    const s = script(rates, 'medium');
    const outro = s.segments.at(-1)!;
    expect(outro.title).toBe('Sources');
    expect(outro.sentences.at(-1)).toBe(
      'It drew on reporting by BBC News, The Guardian, Reuters and Financial Times.',
    );
    expect([...outro.articleIds].sort()).toEqual(rates.flatMap((x) => x.articles.map((a) => a.id)).sort());
  });

  it('says so when there are no stories', () => {
    const s = script([], 'short');
    expect(s.segments.map((segment) => segment.kind)).toEqual(['intro', 'outro']);
    expect(s.segments[0]!.sentences).toContain('No stories on this topic were found in that period.');
    expect(checkScript(s, [])).toEqual([]);
  });

  it('leaves out a story whose articles have nothing to say aloud', () => {
    const mute: Story = {
      lead: {
        ...reutersEcbRates,
        id: 'mute',
        title: 'Watch: the markets today',
        summary: 'Getty Images',
        content: 'By John Smith\nMarkets moved.\nRead more: what it means for you',
      },
      articles: [],
      relevance: 1,
    };
    mute.articles.push(mute.lead);
    const s = script([mute, ...rates], 'medium');
    expect(s.segments.flatMap((segment) => segment.articleIds)).not.toContain('mute');
    expect(storySegments(s)).toHaveLength(rates.length);
  });

  it('writes the same script from the same stories', () => {
    expect(script(richStories, 'medium')).toEqual(script(richStories, 'medium'));
  });
});

describe('writeScript: facts only from the articles', () => {
  it.each(documentaryLengths)(
    'makes every %s story sentence framing or a sentence of a cited article',
    (length) => {
      const s = script(richStories, length);
      const byId = new Map(richStories.flatMap((story) => story.articles).map((a) => [a.id, a]));
      for (const segment of storySegments(s)) {
        const cited = new Set(segment.articleIds.flatMap((id) => sentencesOf(byId.get(id)!)));
        for (const sentence of segment.sentences) {
          if (framing.some((pattern) => pattern.test(sentence))) continue;
          expect(cited).toContain(sentence);
        }
        // The opening is framing: who reported what follows.
        expect(framing.slice(0, 3).some((pattern) => pattern.test(segment.sentences[0]!))).toBe(true);
      }
    },
  );

  it('does not say twice what two outlets both reported', () => {
    const nvidiaStory = semiconductors.find((story) => story.lead.id === 'bbc-nvidia-curbs')!;
    // A long documentary of one story: room for everything its three reports say.
    const [nvidia] = storySegments(script([nvidiaStory], 'long'));
    expect(nvidia!.sentences).toContain('There was more from Reuters.');
    // All three reports give the $2bn hit to revenue, and two the 4% fall in shares.
    expect(nvidia!.sentences.filter((sentence) => sentence.includes('$2bn'))).toHaveLength(1);
    expect(nvidia!.sentences.filter((sentence) => / 4% /.test(sentence))).toHaveLength(1);
  });

  it('never says a caption, a credit, a byline or markup', () => {
    const spoken = documentaryLengths
      .flatMap((length) => script(richStories, length).segments.flatMap((segment) => segment.sentences))
      .join('\n');
    for (const furniture of [
      'Image caption',
      'Getty',
      'By Sarah Jones',
      'appeared first on',
      'Reporting by',
      '<p>',
      '&#39;',
      '&quot;',
    ]) {
      expect(spoken).not.toContain(furniture);
    }
    for (const sentence of spoken.split('\n')) {
      expect(words(sentence)).toBeGreaterThanOrEqual(4);
      expect(sentence).toMatch(/[.!?]["'”’)]*$/);
    }
  });
});

describe('checkScript', () => {
  it.each(documentaryLengths)('finds nothing wrong with the embedded writer’s %s script', (length) => {
    expect(checkScript(script(richStories, length), richStories)).toEqual([]);
  });

  const base = script(semiconductors, 'medium');
  const firstStory = base.segments.findIndex((segment) => segment.kind === 'story');

  it('flags an invented sentence, with or without a figure', () => {
    for (const invented of [
      'The company also announced a $30bn factory in Ohio that will employ 12,000 people.',
      'Apple has agreed to buy the whole company outright to secure supplies.',
    ]) {
      const changed = withSegment(base, firstStory, (segment) => ({
        ...segment,
        sentences: [...segment.sentences.slice(0, 2), invented, ...segment.sentences.slice(2)],
      }));
      const problems = checkScript(changed, semiconductors);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(`segment ${firstStory + 1}`);
      expect(problems[0]).toContain(invented);
    }
  });

  it('accepts a faithful paraphrase and an attribution in other words', () => {
    const story = base.segments[firstStory]!;
    expect(story.articleIds).toContain('bbc-car-chip-shortage');
    const changed = withSegment(base, firstStory, (segment) => ({
      ...segment,
      sentences: [
        'According to BBC News, European carmakers warned that a shortage of basic semiconductors could halt production lines before Christmas.',
        'Several plants had only two weeks of chips in stock, the car industry association said.',
      ],
    }));
    expect(checkScript(changed, semiconductors)).toEqual([]);
  });

  it('flags a citation of an unknown article and a story segment citing none', () => {
    const unknown = withSegment(base, firstStory, (segment) => ({
      ...segment,
      articleIds: [...segment.articleIds, 'made-up-article'],
    }));
    expect(checkScript(unknown, semiconductors)).toEqual([
      expect.stringContaining('cites an unknown article "made-up-article"'),
    ]);
    const none = withSegment(base, firstStory, (segment) => ({ ...segment, articleIds: [] }));
    expect(checkScript(none, semiconductors)).toEqual([expect.stringContaining('cites no article')]);
  });

  it('flags a transition that gives news, segments out of order and a wrong word count', () => {
    const transition = base.segments.findIndex((segment) => segment.kind === 'transition');
    const newsy = withSegment(base, transition, (segment) => ({
      ...segment,
      sentences: ['Next, Intel is cutting 4,000 jobs.'],
    }));
    expect(checkScript(newsy, semiconductors)).toEqual([
      expect.stringContaining('says more than framing words'),
    ]);
    const reordered = { ...base, segments: [...base.segments.slice(1), base.segments[0]!] };
    expect(checkScript(reordered, semiconductors)).toEqual([
      expect.stringContaining('expected intro, story'),
    ]);
    expect(checkScript({ ...base, wordCount: base.wordCount + 1 }, semiconductors)).toEqual([
      expect.stringContaining('wordCount'),
    ]);
  });
});

describe('checkScript with the frame: intro and outro', () => {
  const frame = { topic: 'the week in semiconductors', from: weekAgo, to: now };
  const base = script(semiconductors, 'medium');

  it.each(documentaryLengths)(
    'finds nothing wrong with the embedded writer’s %s intro and outro',
    (length) => {
      expect(checkScript(script(richStories, length), richStories, frame)).toEqual([]);
      expect(checkScript(script([], length), [], frame)).toEqual([]);
    },
  );

  it('accepts an intro in other words that names the topic, the period, counts and outlets', () => {
    const changed = withSegment(base, 0, (segment) => ({
      ...segment,
      sentences: [
        'Welcome to this review of the week in semiconductors, from 17 to 24 November 2026.',
        'We hear from BBC News and Reuters in 3 stories.',
      ],
    }));
    expect(checkScript(changed, semiconductors, frame)).toEqual([]);
  });

  it('flags an intro or outro that gives news or a figure of its own, only when given the frame', () => {
    const newsy = withSegment(base, 0, (segment) => ({
      ...segment,
      sentences: [...segment.sentences, 'Chipmakers lobbied the White House for a tariff exemption.'],
    }));
    expect(checkScript(newsy, semiconductors, frame)).toEqual([
      expect.stringMatching(/^segment 1 \(intro "Introduction"\), sentence 3 says what neither/),
    ]);
    expect(checkScript(newsy, semiconductors)).toEqual([]);
    const last = base.segments.length - 1;
    const figure = withSegment(base, last, (segment) => ({
      ...segment,
      sentences: [...segment.sentences, 'Over 2,500 listeners heard it in 2019.'],
    }));
    expect(checkScript(figure, semiconductors, frame)).toEqual([
      expect.stringContaining('gives a figure neither the period nor the articles give (2,500, 2019)'),
    ]);
  });
});

describe('scriptFromParts', () => {
  const frame = { topic: 'the week in semiconductors', from: weekAgo, to: now };
  const parts = {
    intro: ['A look at the week in semiconductors.'],
    stories: [
      { number: 2, transition: 'Not used before the first story.', sentences: ['  One.  '] },
      { number: 1, transition: null, sentences: ['Two.', ''] },
    ],
    outro: ['The end.'],
  };

  it('takes the writer’s words, the stories’ titles and citations, and counts the words itself', () => {
    const made = scriptFromParts(frame, semiconductors, parts);
    expect(made.segments.map((s) => [s.kind, s.sentences])).toEqual([
      ['intro', ['A look at the week in semiconductors.']],
      ['story', ['One.']],
      ['transition', ['Next, we turn to another story.']],
      ['story', ['Two.']],
      ['outro', ['The end.']],
    ]);
    expect(made.segments[1]!.title).toBe(semiconductors[1]!.lead.title);
    expect(made.segments[1]!.articleIds).toEqual(semiconductors[1]!.articles.map((a) => a.id));
    expect(made.segments.at(-1)!.articleIds).toEqual(
      [semiconductors[1]!, semiconductors[0]!].flatMap((s) => s.articles.map((a) => a.id)),
    );
    expect(made.wordCount).toBe(7 + 1 + 6 + 1 + 2);
    expect(made.title).toBe('The week in semiconductors, 17 to 24 November 2026');
  });

  it('refuses a story that does not exist or is told twice', () => {
    expect(() =>
      scriptFromParts(frame, semiconductors, { ...parts, stories: [{ ...parts.stories[0]!, number: 0 }] }),
    ).toThrow('story 0 does not exist');
    expect(() =>
      scriptFromParts(frame, semiconductors, { ...parts, stories: [parts.stories[1]!, parts.stories[1]!] }),
    ).toThrow('story 1 is told twice');
  });
});

describe('periodInWords', () => {
  it('names month and year once when both ends share them, in UTC', () => {
    expect(periodInWords(weekAgo, now).spoken).toBe('the period from 17 to 24 November 2026');
    expect(periodInWords(new Date('2026-10-28T10:00:00Z'), now).spoken).toBe(
      'the period from 28 October to 24 November 2026',
    );
    expect(periodInWords(new Date('2025-12-28T10:00:00Z'), new Date('2026-01-04T10:00:00Z')).compact).toBe(
      '28 December 2025 to 4 January 2026',
    );
    expect(
      periodInWords(new Date('2026-11-24T01:00:00Z'), new Date('2026-11-24T23:00:00-00:30')).spoken,
    ).toBe('24 November 2026');
  });

  it('ends on the last day the period holds: its end is the moment after it', () => {
    const june = periodInWords(new Date('2017-06-01T00:00:00Z'), new Date('2017-07-01T00:00:00Z'));
    expect(june.spoken).toBe('the period from 1 to 30 June 2017');
    const yesterday = periodInWords(new Date('2026-12-05T00:00:00Z'), new Date('2026-12-06T00:00:00Z'));
    expect(yesterday.spoken).toBe('5 December 2026');
  });
});
