import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../runtime/language.ts';
import { createEmbeddedProvider } from './embedded-provider.ts';
import { stopWordsFor, otherScriptStopWords } from './stop-words.ts';

const provider = createEmbeddedProvider();
const enrich = (title: string, lines: string[]) =>
  provider.enrich({ title, text: lines.join('\n') }, { length: 'short', related: [] });

/** One story, a company cutting jobs, as each language's press would write it. */
const russian = [
  'Газпром сократит 1200 рабочих мест из-за падения прибыли',
  [
    'Газпром сократит 1200 рабочих мест в Европе после того, как квартальная прибыль компании упала на 18%, сообщила компания во вторник.',
    'Сокращения рабочих мест в основном затронут заводы в Германии и Польше, где спрос на промышленные роботы замедлился.',
    'Генеральный директор заявила, что сокращения болезненны, но необходимы.',
    'Профсоюзы в Германии осудили план и пригрозили забастовками на двух заводах.',
  ],
] as const;
const spanish = [
  'Repsol recortará 1.200 empleos por la caída de los beneficios',
  [
    'Repsol recortará 1.200 empleos en Europa después de que sus beneficios trimestrales cayeran un 18%, informó la compañía el martes.',
    'Los despidos afectarán sobre todo a las fábricas de Alemania y Polonia, donde la demanda de sus robots industriales se ha frenado.',
    'La consejera delegada dijo que los recortes de empleos eran dolorosos pero necesarios.',
    'Los analistas dijeron que los despidos ahorrarían unos 150 millones de euros al año.',
    'Los sindicatos de Alemania condenaron el plan y amenazaron con huelgas en dos fábricas.',
  ],
] as const;
const arabic = [
  'أرامكو تلغي 1200 وظيفة بسبب تراجع الأرباح',
  [
    'قالت شركة أرامكو يوم الثلاثاء إنها ستلغي 1200 وظيفة في أوروبا بعد أن تراجعت أرباحها الفصلية بنسبة 18 في المئة.',
    'وستطال تخفيضات الوظائف بشكل رئيسي المصانع في ألمانيا وبولندا، حيث تباطأ الطلب على الروبوتات الصناعية.',
    'وقالت الرئيسة التنفيذية إن تخفيضات الوظائف مؤلمة لكنها ضرورية.',
    'وانتقدت النقابات في ألمانيا الخطة وهددت بإضرابات في مصنعين.',
  ],
] as const;
const vietnamese = [
  'Vingroup cắt giảm 1.200 việc làm do lợi nhuận giảm',
  [
    'Vingroup cho biết hôm thứ Ba sẽ cắt giảm 1.200 việc làm ở châu Âu sau khi lợi nhuận quý giảm 18%.',
    'Việc cắt giảm việc làm chủ yếu ảnh hưởng đến các nhà máy ở Đức và Ba Lan, nơi nhu cầu robot công nghiệp chậm lại.',
    'Giám đốc điều hành cho biết việc cắt giảm việc làm là đau đớn nhưng cần thiết.',
    'Các công đoàn ở Đức chỉ trích kế hoạch và đe dọa đình công tại hai nhà máy.',
  ],
] as const;

describe('keywords in languages other than English', () => {
  it('Spanish: the story’s words, not its articles and pronouns', async () => {
    const e = await enrich(spanish[0], [...spanish[1]]);
    expect(e.language).toBe('es');
    expect(e.keywords).toEqual(expect.arrayContaining(['empleos', 'despidos', 'fábricas', 'beneficios']));
    for (const word of ['los', 'las', 'que', 'sus', 'dijo', 'dijeron', 'que los'])
      expect(e.keywords).not.toContain(word);
    // Names are the entities' (Repsol, Alemania), not keywords.
    expect(e.keywords).not.toContain('repsol');
  });

  it("counts a word's forms as one, shown as the article most often writes it", async () => {
    // Each form once: only together do they recur, as a keyword must.
    const e = await enrich('La fábrica anuncia un recorte de empleo', [
      'La dirección de la planta de Valladolid confirmó el martes que la decisión afectará a 500 trabajadores.',
      'Los sindicatos rechazan la pérdida de empleos y convocan paros en las fábricas del grupo.',
    ]);
    expect(e.language).toBe('es');
    expect(e.keywords).toEqual(expect.arrayContaining(['fábrica', 'empleo']));
    expect(e.keywords).not.toContain('empleos');
    expect(e.keywords).not.toContain('fábricas');
  });

  it('Russian: the words wink could not read, and the phrase the article repeats', async () => {
    const e = await enrich(russian[0], [...russian[1]]);
    expect(e.language).toBe('ru');
    expect(e.keywords[0]).toBe('рабочих мест');
    expect(e.keywords).toContain('сокращения');
    for (const word of ['в', 'на', 'что', 'после', 'заявила']) expect(e.keywords).not.toContain(word);
    expect(e.insights.length).toBeGreaterThan(0);
  });

  it('Hindi: its words, not the verb forms and auxiliaries news writes in every story', async () => {
    const e = await enrich('टाटा मोटर्स 1200 नौकरियां खत्म करेगी', [
      'टाटा मोटर्स ने मंगलवार को कहा कि वह यूरोप में 1200 नौकरियां खत्म करेगी, क्योंकि कंपनी का तिमाही मुनाफा 18 प्रतिशत गिर गया।',
      'नौकरियों में कटौती का असर मुख्य रूप से जर्मनी और पोलैंड के कारखानों पर पड़ेगा, जहां औद्योगिक रोबोट की मांग धीमी हो गई है।',
      'मुख्य कार्यकारी अधिकारी ने कहा कि कटौती दर्दनाक है लेकिन जरूरी है।',
      'जर्मनी में यूनियनों ने योजना की आलोचना की और दो कारखानों में हड़ताल की धमकी दी।',
    ]);
    expect(e.language).toBe('hi');
    expect(e.keywords).toEqual(expect.arrayContaining(['नौकरियां', 'कटौती', 'कारखानों']));
    for (const word of ['करेगी', 'खत्म करेगी', 'गई', 'कहा', 'प्रतिशत']) expect(e.keywords).not.toContain(word);
    // Names are the entities' (no capitals tell them here): the company and the country are no keywords.
    expect(e.entities.map((x) => x.name)).toEqual(expect.arrayContaining(['टाटा मोटर्स', 'जर्मनी']));
    for (const word of ['टाटा', 'मोटर्स', 'जर्मनी', 'टाटा मोटर्स']) expect(e.keywords).not.toContain(word);
  });

  it('Arabic: detected as Arabic, with its words as keywords', async () => {
    const e = await enrich(arabic[0], [...arabic[1]]);
    expect(e.language).toBe('ar');
    expect(e.keywords).toEqual(expect.arrayContaining(['تخفيضات الوظائف', 'الوظائف']));
    expect(e.keywords).not.toContain('في');
  });

  it('Arabic: a word with "and", "in" or "the" written against it is the same keyword', async () => {
    const e = await enrich('مباحثات في القاهرة', [
      'وصل الوفد إلى القاهرة يوم الأحد لبحث وقف إطلاق النار.',
      'وقال مسؤولون إن التوصل إلى هدنة ممكن خلال أيام.',
      'ويأمل الوسطاء أن تصمد الهدنة هذه المرة.',
      'وتعهدت الأطراف بالالتزام بالهدنة وبإطلاق سراح المحتجزين.',
    ]);
    expect(e.language).toBe('ar');
    // هدنة, الهدنة and بالهدنة, once each: one keyword, shown in the form written first.
    expect(e.keywords).toContain('هدنة');
  });

  it('Vietnamese: words of two syllables, not syllables alone', async () => {
    const e = await enrich(vietnamese[0], [...vietnamese[1]]);
    expect(e.language).toBe('vi');
    expect(e.keywords).toEqual(expect.arrayContaining(['cắt giảm', 'lợi nhuận', 'nhà máy']));
    expect(e.keywords.every((k) => k.includes(' '))).toBe(true);
  });
});

describe('German, which capitalises every noun', () => {
  const german = [
    'Siemens streicht 1200 Stellen wegen sinkender Gewinne',
    [
      'Siemens wird in Europa 1200 Stellen streichen, nachdem der Quartalsgewinn um 18 Prozent gefallen ist, teilte das Unternehmen am Dienstag in München mit.',
      'Der Stellenabbau trifft vor allem Fabriken in Polen, wo die Nachfrage nach Industrierobotern nachgelassen hat.',
      'Vorstandschef Roland Busch sagte, der Stellenabbau sei schmerzhaft, aber notwendig.',
      'Bundeskanzler Olaf Scholz kritisierte die Entscheidung im Bundestag und verwies auf die Lage in der Ukraine.',
      'Die Gewerkschaft kritisierte den geplanten Stellenabbau und drohte mit Streiks in zwei Fabriken.',
      'Siemens beschäftigt weltweit rund 320.000 Menschen, Busch will die Kosten weiter senken.',
    ],
  ] as const;

  it('finds people, places and organisations, not the nouns its grammar shows', async () => {
    const e = await enrich(german[0], [...german[1]]);
    expect(e.language).toBe('de');
    const entities = e.entities.map((x) => `${x.name}/${x.type}`);
    expect(entities).toEqual(
      expect.arrayContaining([
        'Siemens/organization',
        'Roland Busch/person',
        'Olaf Scholz/person',
        'Ukraine/place',
      ]),
    );
    // After a count or an article, or with a noun's suffix: Stellen, Fabriken, Stellenabbau, Entscheidung.
    for (const noun of ['Stellen', 'Fabriken', 'Stellenabbau', 'Entscheidung', 'Vorstandschef Roland Busch'])
      expect(e.entities.map((x) => x.name)).not.toContain(noun);
  });

  it('takes those nouns as keywords, and neither names nor verbs', async () => {
    const e = await enrich(german[0], [...german[1]]);
    expect(e.keywords).toEqual(expect.arrayContaining(['stellenabbau', 'stellen', 'fabriken']));
    for (const word of ['siemens', 'busch', 'kritisierte']) expect(e.keywords).not.toContain(word);
  });
});

describe('stop words', () => {
  it('are the stopword package’s lists with news’s own verbs, by ISO 639-1 code or locale', () => {
    for (const word of ['los', 'que', 'dijo', 'según']) expect(stopWordsFor('es')!.has(word)).toBe(true);
    expect(stopWordsFor('es')!.has('empleo')).toBe(false);
    expect(stopWordsFor('pt-BR')!.has('você')).toBe(true);
    expect(stopWordsFor('en')).toBeNull(); // wink's
    expect(stopWordsFor(null)).toBeNull();
    expect(stopWordsFor('xx')).toBeNull();
    for (const word of ['и', 'في', 'के', 'και']) expect(otherScriptStopWords.has(word)).toBe(true);
    expect([...otherScriptStopWords].some((w) => /^[a-z]+$/u.test(w))).toBe(false);
  });
});

describe('language detection', () => {
  it('names Standard Arabic and Iranian Persian by their ISO 639-1 codes', () => {
    expect(detectLanguage(arabic[1].join(' '))).toBe('ar');
    expect(
      detectLanguage(
        'شرکت ملی نفت ایران روز سه‌شنبه اعلام کرد که تولید نفت خام در ماه گذشته افزایش یافته است و صادرات به کشورهای آسیایی ادامه دارد. ' +
          'به گفته مدیران این شرکت، سرمایه‌گذاری در میدان‌های نفتی جنوب کشور در سال آینده دو برابر خواهد شد.',
      ),
    ).toBe('fa');
    expect(detectLanguage(spanish[1].join(' '))).toBe('es');
  });
});
