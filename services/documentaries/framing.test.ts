import { describe, expect, it } from 'vitest';
import { framedLanguages, framingFor } from './framing.ts';
import { scriptMessages } from './openai-script-writer.ts';
import { checkScript, periodInWords, scriptFromParts, writeScript, type Script } from './script.ts';
import { countSpokenWords } from './spoken-words.ts';
import { pickStories, type CandidateArticle } from './stories.ts';
import { now, weekAgo } from './testdata/articles.ts';
import { chineseArticles, spanishArticles } from './testdata/articles-zh-es.ts';

const storiesOn = (topic: string, articles: readonly CandidateArticle[]) =>
  pickStories(topic, articles, { now, maxStories: 10 });
const sentencesOf = (script: Script, kind: string) =>
  script.segments.filter((s) => s.kind === kind).flatMap((s) => s.sentences);
/** Every sentence the article has, one per line as the test data writes them. */
const articleSentences = (articles: readonly CandidateArticle[]) =>
  new Set(articles.flatMap((a) => a.content.split('\n')));

/** The English templates' own words: none may be left in a script framed in another language. */
const englishFraming =
  /\b(documentary|reported|brings together|also covered|There was more|Next, we turn|story|stories|from \d+ sources)\b/u;

describe('a documentary in Chinese', () => {
  const stories = storiesOn('半导体', chineseArticles);
  const frame = { topic: '半导体', from: weekAgo, to: now, language: 'zh' };
  const script = writeScript({ ...frame, stories, length: 'short' });

  it('tells its stories in the articles’ own sentences, which end in 。 and have no capital letters', () => {
    expect(stories.length).toBe(2);
    const told = sentencesOf(script, 'story');
    const own = articleSentences(chineseArticles);
    const copied = told.filter((s) => own.has(s));
    expect(copied.length).toBeGreaterThanOrEqual(4);
    expect(copied).toContain('美国商务部周日宣布，禁止英伟达在未获许可的情况下向中国出售人工智能芯片。');
    // The rest is framing: an outlet named, in Chinese.
    for (const sentence of told.filter((s) => !own.has(s)))
      expect(sentence).toMatch(/^(以下是|这篇报道来自|.+报道了以下内容|.+也报道了这则新闻)/u);
  });

  it('frames them in Chinese, with Chinese chapter titles and dates', () => {
    expect(script.title).toBe('半导体（2026年11月17日至24日）');
    expect(script.segments[0]).toMatchObject({ kind: 'intro', title: '引言' });
    expect(script.segments[0]!.sentences).toEqual([
      '这是一部关于“半导体”的新闻纪录片，时间范围为2026年11月17日至2026年11月24日。',
      '本片汇集了来自3个来源的2则新闻。',
    ]);
    expect(script.segments.at(-1)).toMatchObject({ kind: 'outro', title: '来源' });
    expect(sentencesOf(script, 'outro')[1]).toMatch(
      /^本片的内容来自(新华社|人民日报|财新网)、.+和.+的报道。$/u,
    );
    expect(sentencesOf(script, 'transition')).toEqual(['接下来，我们来看另一则新闻。']);
    for (const sentence of script.segments.flatMap((s) => s.sentences))
      expect(sentence).not.toMatch(englishFraming);
  });

  it('counts ICU’s words, not the spaces Chinese does not write', () => {
    expect(countSpokenWords('半导体出口管制')).toBe(3);
    expect(countSpokenWords('Here is what 新华社 reported.')).toBe(5);
    const counted = script.segments.flatMap((s) => s.sentences).reduce((n, s) => n + countSpokenWords(s), 0);
    expect(script.wordCount).toBe(counted);
    expect(script.wordCount).toBeGreaterThan(60); // about a word per two characters, not one per sentence
  });

  it('passes checkScript, which still catches a fact in a Chinese transition', () => {
    expect(checkScript(script, stories, frame)).toEqual([]);
    const transition = script.segments.findIndex((s) => s.kind === 'transition');
    const segments = script.segments.map((s, i) =>
      i === transition ? { ...s, sentences: ['接下来，英伟达的股价下跌了百分之五。'] } : s,
    );
    const wordCount = segments.flatMap((s) => s.sentences).reduce((n, s) => n + countSpokenWords(s), 0);
    expect(checkScript({ ...script, segments, wordCount }, stories, frame)).toEqual([
      expect.stringMatching(/^segment \d+ \(transition "过渡"\), sentence 1 says more than framing words/u),
    ]);
  });
});

describe('a documentary in Spanish', () => {
  const stories = storiesOn('inteligencia artificial', spanishArticles);
  const frame = { topic: 'inteligencia artificial', from: weekAgo, to: now, language: 'es-ES' };
  const script = writeScript({ ...frame, stories, length: 'medium' });

  it('frames its stories in Spanish around the articles’ own sentences', () => {
    expect(script.title).toBe('Inteligencia artificial, 17–24 de noviembre de 2026');
    expect(script.segments.map((s) => s.title)).toEqual([
      'Introducción',
      'El Parlamento Europeo aprueba la ley de inteligencia artificial con multas de hasta el 6%',
      'Transición',
      'Barcelona abre un centro de investigación en inteligencia artificial',
      'Fuentes',
    ]);
    expect(script.segments[0]!.sentences).toEqual([
      'Este es un documental informativo sobre inteligencia artificial, que abarca el periodo del 17 de noviembre de 2026 al 24 de noviembre de 2026.',
      'Reúne 2 noticias de 3 fuentes.',
    ]);
    const first = script.segments[1]!.sentences;
    expect(first[0]).toBe('Esto es lo que informó El Mundo.');
    expect(first).toContain('Hubo más información de El País.');
    // A question opened with ¿ is a sentence a listener can follow.
    expect(sentencesOf(script, 'story')).toContain(
      '¿Podrá la ciudad competir con los grandes polos tecnológicos de Europa?',
    );
    expect(sentencesOf(script, 'outro')).toEqual([
      'Así termina este documental sobre inteligencia artificial.',
      'Se basó en información de El Mundo, El País y La Vanguardia.',
    ]);
    for (const sentence of script.segments.flatMap((s) => s.sentences))
      expect(sentence).not.toMatch(englishFraming);
    expect(checkScript(script, stories, frame)).toEqual([]);
  });

  it('asks a model to write in Spanish, and frames its parts in Spanish', () => {
    const [system] = scriptMessages({ ...frame, stories, length: 'short' }, []);
    expect(system!.content).toContain('Write every sentence in European Spanish,');
    expect(system!.content).toContain('el periodo del 17 de noviembre de 2026 al 24 de noviembre de 2026');
    const parts = {
      intro: ['Bienvenidos a este repaso de la semana en inteligencia artificial.'],
      stories: [
        {
          number: 1,
          transition: null,
          sentences: ['Según El País, el Parlamento Europeo aprobó nuevas normas.'],
        },
        { number: 2, transition: null, sentences: ['Barcelona inauguró un centro de investigación.'] },
      ],
      outro: ['Gracias por escucharnos.'],
    };
    const made = scriptFromParts(frame, stories, parts);
    expect(
      made.segments.map((s) => [s.title, s.sentences[0]]).filter(([title]) => title === 'Transición'),
    ).toEqual([['Transición', 'A continuación, pasamos a otra noticia.']]);
    expect(checkScript(made, stories, frame)).toEqual([]);
  });
});

describe('every language with framing of its own', () => {
  const stories = storiesOn('inteligencia artificial', spanishArticles);

  it.each(framedLanguages)('%s: a script checkScript accepts, in its own words', (language) => {
    const frame = { topic: 'inteligencia artificial', from: weekAgo, to: now, language };
    const script = writeScript({ ...frame, stories, length: 'long' });
    const framing = framingFor(language);
    expect(script.segments.map((s) => s.kind)).toEqual(['intro', 'story', 'transition', 'story', 'outro']);
    expect(script.segments[0]!.title).toBe(framing.titles.intro);
    expect(script.segments.at(-1)!.title).toBe(framing.titles.outro);
    expect(checkScript(script, stories, frame)).toEqual([]);
    if (language !== 'en') {
      const framingSentences = script.segments
        .flatMap((s) => s.sentences)
        .filter((s) => !articleSentences(spanishArticles).has(s));
      for (const sentence of framingSentences) expect(sentence).not.toMatch(englishFraming);
    }
  });

  it('says the period as each language does', () => {
    const eighth = new Date('2026-11-08T00:00:00Z');
    const first = new Date('2026-11-01T00:00:00Z');
    expect(periodInWords(eighth, now, 'it').spoken).toBe(
      "il periodo dall'8 novembre 2026 al 24 novembre 2026",
    );
    expect(periodInWords(now, now, 'it').spoken).toBe('il 24 novembre 2026');
    expect(periodInWords(first, first, 'fr').spoken).toBe('le 1er novembre 2026');
    expect(periodInWords(weekAgo, now, 'de').spoken).toBe(
      'den Zeitraum vom 17. November 2026 bis zum 24. November 2026',
    );
    expect(periodInWords(weekAgo, now, 'ru').spoken).toBe(
      'период с 17 ноября 2026 года по 24 ноября 2026 года',
    );
    expect(periodInWords(weekAgo, now, 'ja').compact).toBe('2026年11月17日～24日');
    expect(periodInWords(new Date('2025-12-28T00:00:00Z'), now, 'zh').compact).toBe(
      '2025年12月28日至2026年11月24日',
    );
    expect(periodInWords(new Date('2026-10-28T00:00:00Z'), now, 'es').compact).toBe(
      '28 de octubre de 2026 – 24 de noviembre de 2026',
    );
  });

  it('counts in the plural each language asks for', () => {
    const ru = framingFor('ru');
    expect([1, 2, 5, 21].map((n) => ru.gathered(n, n))).toEqual([
      'Вы услышите 1 сюжет из 1 источника.',
      'Вы услышите 2 сюжета из 2 источников.',
      'Вы услышите 5 сюжетов из 5 источников.',
      'Вы услышите 21 сюжет из 21 источника.',
    ]);
    expect(framingFor('ja').gathered(3, 12)).toBe('12の情報源から3件のニュースをお伝えします。');
    expect(framingFor('ja').gathered(3, 2)).toBe('2つの情報源から3件のニュースをお伝えします。');
  });

  it('frames a language without framing of its own in English, around its own sentences', () => {
    expect(framingFor('bn')).toBe(framingFor('en'));
    expect(framingFor('pt_BR')).toBe(framingFor('pt'));
    const bengali: CandidateArticle = {
      ...spanishArticles[0]!,
      id: 'bbcbangla-ai',
      language: 'bn',
      source: 'বিবিসি বাংলা',
      title: 'ইউরোপীয় ইউনিয়ন কৃত্রিম বুদ্ধিমত্তার নতুন নিয়ম পাস করেছে',
      content:
        'ইউরোপীয় পার্লামেন্ট বৃহস্পতিবার কৃত্রিম বুদ্ধিমত্তা কোম্পানিগুলোর জন্য নতুন নিয়মের একটি প্যাকেজ অনুমোদন করেছে।\n' +
        'নিয়ম ভঙ্গকারী কোম্পানিগুলোকে তাদের বৈশ্বিক আয়ের ছয় শতাংশ পর্যন্ত জরিমানা দিতে হতে পারে।',
    };
    const script = writeScript({
      topic: 'কৃত্রিম বুদ্ধিমত্তা',
      from: weekAgo,
      to: now,
      stories: storiesOn('কৃত্রিম বুদ্ধিমত্তা', [bengali]),
      length: 'short',
      language: 'bn',
    });
    // Bengali has no capital letters: its sentences are still ones a listener can follow.
    expect(sentencesOf(script, 'story')).toEqual([
      'Here is what বিবিসি বাংলা reported.',
      'ইউরোপীয় পার্লামেন্ট বৃহস্পতিবার কৃত্রিম বুদ্ধিমত্তা কোম্পানিগুলোর জন্য নতুন নিয়মের একটি প্যাকেজ অনুমোদন করেছে।',
      'নিয়ম ভঙ্গকারী কোম্পানিগুলোকে তাদের বৈশ্বিক আয়ের ছয় শতাংশ পর্যন্ত জরিমানা দিতে হতে পারে।',
    ]);
  });

  it('frames an Arabic documentary in Arabic, counts as Arabic says them, and holds it to framing', () => {
    const arabic: CandidateArticle = {
      ...spanishArticles[0]!,
      id: 'aljazeera-ai',
      language: 'ar',
      source: 'الجزيرة',
      title: 'الاتحاد الأوروبي يقر قواعد جديدة للذكاء الاصطناعي',
      content:
        'أقر البرلمان الأوروبي يوم الخميس حزمة من القواعد التي تلزم شركات الذكاء الاصطناعي بالكشف عن بياناتها.\n' +
        'وتواجه الشركات المخالفة غرامات تصل إلى ستة في المئة من إيراداتها العالمية.',
    };
    const frame = { topic: 'الذكاء الاصطناعي', from: weekAgo, to: now, language: 'ar' };
    const stories = storiesOn('الذكاء الاصطناعي', [arabic]);
    const script = writeScript({ ...frame, stories, length: 'short' });
    expect(script.title).toBe('الذكاء الاصطناعي، 17–24 نوفمبر 2026');
    expect(script.segments[0]).toMatchObject({ kind: 'intro', title: 'مقدمة' });
    expect(script.segments[0]!.sentences).toEqual([
      'هذا وثائقي إخباري عن «الذكاء الاصطناعي»، يغطي الفترة من 17 نوفمبر 2026 إلى 24 نوفمبر 2026.',
      'يضم خبرًا واحدًا من مصدر واحد.',
    ]);
    expect(sentencesOf(script, 'story')).toEqual([
      'ننقل لكم ما جاء في الجزيرة.',
      'أقر البرلمان الأوروبي يوم الخميس حزمة من القواعد التي تلزم شركات الذكاء الاصطناعي بالكشف عن بياناتها.',
      'وتواجه الشركات المخالفة غرامات تصل إلى ستة في المئة من إيراداتها العالمية.',
    ]);
    for (const sentence of script.segments.flatMap((s) => s.sentences))
      expect(sentence).not.toMatch(englishFraming);
    expect(checkScript(script, stories, frame)).toEqual([]);
    // Three outlets of one story, named in Arabic: "و" set apart, so checkScript reads each name whole.
    const more = [
      {
        ...arabic,
        id: 'alarabiya-ai',
        source: 'العربية',
        content: 'وقال مسؤولون إن القواعد ستدخل حيز التنفيذ العام المقبل.',
      },
      {
        ...arabic,
        id: 'skynews-ai',
        source: 'سكاي نيوز عربية',
        content: 'وتشمل القواعد غرامات كبيرة على الشركات المخالفة.',
      },
    ];
    const three = storiesOn('الذكاء الاصطناعي', [arabic, ...more]);
    const threeScript = writeScript({ ...frame, stories: three, length: 'short' });
    expect(sentencesOf(threeScript, 'outro')[1]).toBe(
      'استند هذا الوثائقي إلى تقارير الجزيرة، العربية و سكاي نيوز عربية.',
    );
    expect(checkScript(threeScript, three, frame)).toEqual([]);
    const ar = framingFor('ar-EG');
    expect([2, 3, 11, 100].map((n) => ar.gathered(n, n))).toEqual([
      'يضم خبرين من مصدرين.',
      'يضم 3 أخبار من 3 مصادر.',
      'يضم 11 خبرًا من 11 مصدرًا.',
      'يضم 100 خبر من 100 مصدر.',
    ]);
  });

  it('frames Hindi, Turkish, Polish, Ukrainian, Indonesian, Korean, Swedish, Persian and Hebrew in their own words', () => {
    const intro = (language: string) =>
      framingFor(language).intro('X', periodInWords(weekAgo, now, language).spoken);
    expect(intro('hi')).toBe(
      'यह “X” पर एक समाचार वृत्तचित्र है, जो 17 नवंबर 2026 से 24 नवंबर 2026 तक की अवधि को कवर करता है।',
    );
    expect(intro('tr')).toBe(
      'Bu, X konulu bir haber belgeselidir ve 17 Kasım 2026 ile 24 Kasım 2026 arasındaki dönemi kapsar.',
    );
    expect(intro('ko')).toBe(
      'X에 관한 뉴스 다큐멘터리입니다. 2026년 11월 17일부터 2026년 11월 24일까지의 기간을 다룹니다.',
    );
    // Plural forms by Intl.PluralRules: Polish and Ukrainian have three.
    expect([1, 2, 5, 22].map((n) => framingFor('pl').gathered(n, n))).toEqual([
      'Zawiera 1 wiadomość z 1 źródła.',
      'Zawiera 2 wiadomości z 2 źródeł.',
      'Zawiera 5 wiadomości z 5 źródeł.',
      'Zawiera 22 wiadomości z 22 źródeł.',
    ]);
    expect([1, 3, 5, 21].map((n) => framingFor('uk').gathered(n, n))).toEqual([
      'Ви почуєте 1 сюжет з 1 джерела.',
      'Ви почуєте 3 сюжети з 3 джерел.',
      'Ви почуєте 5 сюжетів з 5 джерел.',
      'Ви почуєте 21 сюжет з 21 джерела.',
    ]);
    // The year in words a narrator reads, not ICU's abbreviation.
    expect(periodInWords(weekAgo, now, 'uk').compact).toBe('17–24 листопада 2026 року');
    expect(framingFor('hi').gathered(1, 1)).toBe('इसमें 1 स्रोत से 1 खबर शामिल है।');
    expect(framingFor('id').gathered(2, 3)).toBe('Dokumenter ini menghimpun 2 berita dari 3 sumber.');
    expect(framingFor('sv').gathered(1, 2)).toBe('Den samlar 1 nyhet från 2 källor.');
    // Persian in Iran's calendar, in the digits the counts use; Hebrew with a word for one and two.
    expect(intro('fa')).toBe(
      'این یک مستند خبری دربارهٔ «X» است که بازهٔ 26 آبان 1405 تا 3 آذر 1405 را در بر می‌گیرد.',
    );
    expect(framingFor('he').gathered(1, 2)).toBe('התוכנית מביאה ידיעה אחת מתוך שני מקורות.');
    expect(framingFor('he').gathered(3, 5)).toBe('התוכנית מביאה 3 ידיעות מתוך 5 מקורות.');
    expect(framingFor('he').drewOn(['הארץ', 'ynet', 'כאן'])).toBe(
      'התוכנית התבססה על דיווחים של הארץ, ynet וגם כאן.',
    );
    expect(framedLanguages).toEqual(
      expect.arrayContaining(['ar', 'hi', 'tr', 'pl', 'uk', 'id', 'ko', 'sv', 'fa', 'he']),
    );
  });
});
