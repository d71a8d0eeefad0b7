import { describe, expect, it } from 'vitest';
import { isMostlyCaseless, matchForm, withoutParticles } from './caseless-entities.ts';
import { extractEntities } from './entities.ts';
import { parseSentences } from './sentences.ts';

const entities = (language: string | null, title: string, text: string) =>
  extractEntities(parseSentences(title, language), parseSentences(text, language), language);
const found = (language: string | null, title: string, text: string) =>
  entities(language, title, text).map((e) => [e.name, e.type]);
const names = (language: string | null, title: string, text: string) =>
  found(language, title, text).map(([name]) => name);

describe('entities of text in scripts without capitals', () => {
  it('finds Arabic people after their titles, past what describes the title', () => {
    const result = found(
      'ar',
      'ولي العهد السعودي يستقبل وزير الخارجية الأمريكي',
      'استقبل ولي العهد السعودي الأمير محمد بن سلمان في الرياض اليوم وزير الخارجية الأمريكي أنتوني بلينكن. ' +
        'وقالت وزارة الخارجية الأمريكية في بيان إن بلينكن سيتوجه بعد ذلك إلى القاهرة. ' +
        'وقال الأمين العام للأمم المتحدة أنطونيو غوتيريش إن المجتمع الدولي يجب أن يتحرك. ' +
        'وقال محافظ البنك المركزي المصري حسن عبد الله إن التضخم سينخفض.',
    );
    expect(result).toEqual(
      expect.arrayContaining([
        // بن and عبد join a name's parts.
        ['محمد بن سلمان', 'person'],
        ['أنتوني بلينكن', 'person'],
        // Past "of the United Nations", which is found as the organisation it is.
        ['أنطونيو غوتيريش', 'person'],
        ['الأمم المتحدة', 'organization'],
        // Past the bank the governor heads, which is found too.
        ['حسن عبد الله', 'person'],
        ['البنك المركزي المصري', 'organization'],
        ['وزارة الخارجية الأمريكية', 'organization'],
        ['الرياض', 'place'],
        ['القاهرة', 'place'],
      ]),
    );
    // "receives" after the crown prince in the headline is no name, nor is the title itself.
    expect(result.map(([name]) => name)).not.toContain('يستقبل');
    expect(result.map(([name]) => name)).not.toContain('ولي العهد');
  });

  it("counts a person's later mentions by the last word of the name, the headline's too", () => {
    const blinken = entities(
      'ar',
      'بلينكن في القاهرة',
      'وصل وزير الخارجية الأمريكي أنتوني بلينكن إلى القاهرة. وقال بلينكن إن المحادثات مثمرة. وأضاف بلينكن أن الاتفاق قريب.',
    ).find((e) => e.name === 'أنتوني بلينكن');
    expect(blinken).toMatchObject({ type: 'person', mentions: 4, salience: 1 });
  });

  it('finds no person where a title is followed by a verb, a noun or one word', () => {
    const result = found(
      'ar',
      'أخبار',
      'قال الرئيس إن البلاد تواجه أزمة. الرئيس الأمريكي يزور لندن الأسبوع المقبل. الرئيس الفرنسي يصل برلين. ' +
        'المدرب رفض الحديث للصحفيين. اللاعب سجل هدفين. الوزير وقع اتفاقية تجارية.',
    );
    expect(result.filter(([, type]) => type === 'person')).toEqual([]);
    expect(result).toEqual(
      expect.arrayContaining([
        ['لندن', 'place'],
        ['برلين', 'place'],
      ]),
    );
  });

  it('reads places and organisations through the particles written against them, shown as listed', () => {
    const result = found(
      'ar',
      'النفط',
      'ارتفعت الأسعار بالولايات المتحدة وفي لندن وبريطانيا. وقال المحلل في بنك جي بي مورغان إن شركة تسلا تراجعت. ' +
        'وقررت أوبك خفض الإنتاج، وحذرت منظمة الصحة العالمية من الوباء، وأعلن بنك إنجلترا قراره.',
    );
    expect(result).toEqual(
      expect.arrayContaining([
        // بالولايات is بـ + الولايات.
        ['الولايات المتحدة', 'place'],
        ['لندن', 'place'],
        ['بريطانيا', 'place'],
        // The letters of an initialism, then the name.
        ['بنك جي بي مورغان', 'organization'],
        // After the word for a company, the company's name alone.
        ['تسلا', 'organization'],
        ['أوبك', 'organization'],
        ['منظمة الصحة العالمية', 'organization'],
        ['بنك إنجلترا', 'organization'],
      ]),
    );
    expect(result.map(([name]) => name)).not.toContain('وفي لندن');
  });

  it('finds Persian people after a title, and before one set off by a comma', () => {
    const result = found(
      'fa',
      'سفر وزیر امور خارجه به مسکو',
      'عباس عراقچی، وزیر امور خارجه ایران، امروز به مسکو سفر کرد. او با سرگئی لاوروف، وزیر خارجه روسیه، دیدار ' +
        'خواهد کرد. سخنگوی وزارت امور خارجه گفت این سفر دو روز طول می‌کشد. رئیس‌جمهور مسعود پزشکیان نیز در ' +
        'تهران با نخست‌وزیر عراق دیدار کرد. رهبر انقلاب اسلامی سخنرانی کرد و سخنگوی دولت گفت که جلسه برگزار شد.',
    );
    expect(result).toEqual(
      expect.arrayContaining([
        ['عباس عراقچی', 'person'],
        ['سرگئی لاوروف', 'person'],
        ['مسعود پزشکیان', 'person'],
        ['وزارت امور خارجه', 'organization'],
        ['مسکو', 'place'],
        ['ایران', 'place'],
        ['روسیه', 'place'],
        ['عراق', 'place'],
      ]),
    );
    // A spokesman of a ministry, the leader of the revolution, the government: no people.
    expect(result.filter(([, type]) => type === 'person')).toHaveLength(3);
  });

  it('finds Hebrew names and places through their prefixed particles', () => {
    const result = found(
      'he',
      'ראש הממשלה נפגש עם נשיא ארצות הברית',
      'ראש הממשלה בנימין נתניהו נפגש היום בוושינגטון עם הנשיא דונלד טראמפ. השניים שוחחו על המצב ברצועת עזה. ' +
        'בתל אביב הפגינו אלפים.',
    );
    expect(result).toEqual(
      expect.arrayContaining([
        ['בנימין נתניהו', 'person'],
        ['דונלד טראמפ', 'person'],
        ['ארצות הברית', 'place'],
        ['וושינגטון', 'place'],
        ['רצועת עזה', 'place'],
        ['תל אביב', 'place'],
      ]),
    );
  });

  it('finds Hindi people up to their postposition and organisations by their last word', () => {
    const result = found(
      'hi',
      'भारतीय रिज़र्व बैंक ने ब्याज दरें घटाईं',
      'भारतीय रिज़र्व बैंक ने बुधवार को रेपो दर में कटौती की। गवर्नर संजय मल्होत्रा ने कहा कि महंगाई नियंत्रण में है। ' +
        'वित्त मंत्री निर्मला सीतारमण ने फैसले का स्वागत किया। मुंबई में सेंसेक्स चढ़ा। रिलायंस इंडस्ट्रीज और ' +
        'एचडीएफसी बैंक के शेयरों में तेजी रही। अमेरिकी राष्ट्रपति जो बाइडन ने भी बयान दिया। प्रधानमंत्री आवास ' +
        'योजना के तहत घर बनेंगे। राष्ट्रपति चुनाव में मतदान हुआ।',
    );
    expect(result).toEqual(
      expect.arrayContaining([
        ['भारतीय रिज़र्व बैंक', 'organization'],
        ['संजय मल्होत्रा', 'person'],
        ['निर्मला सीतारमण', 'person'],
        // जो is a Hindi stop word ("who") and Joe.
        ['जो बाइडन', 'person'],
        ['रिलायंस इंडस्ट्रीज', 'organization'],
        ['एचडीएफसी बैंक', 'organization'],
        ['मुंबई', 'place'],
      ]),
    );
    // A scheme and an election named after a title are no people.
    expect(result.filter(([, type]) => type === 'person')).toHaveLength(3);
    expect(result[0]).toEqual(['भारतीय रिज़र्व बैंक', 'organization']); // in the headline and the lead
  });

  it('finds Urdu places of two words and a Chinese name of three syllables', () => {
    expect(
      found(
        'ur',
        'وزیراعظم کا دورہ چین',
        'وزیراعظم شہباز شریف نے بدھ کو بیجنگ کا دورہ کیا جہاں انہوں نے چین کے صدر شی جن پنگ سے ملاقات کی۔ ' +
          'اسلام آباد میں حکام نے کہا کہ یہ دورہ اہم ہے۔',
      ),
    ).toEqual(
      expect.arrayContaining([
        ['شہباز شریف', 'person'],
        ['شی جن پنگ', 'person'],
        ['اسلام آباد', 'place'],
        ['بیجنگ', 'place'],
        ['چین', 'place'],
      ]),
    );
  });

  it('finds the countries ICU names in any caseless language, through Bengali case endings', () => {
    expect(
      found('bn', 'ঢাকায় বৈঠক', 'বাংলাদেশ ও ভারতের মধ্যে বৈঠক হয়েছে। চীন ও জাপানের প্রতিনিধিরাও উপস্থিত ছিলেন।'),
    ).toEqual(
      expect.arrayContaining([
        ['বাংলাদেশ', 'place'],
        ['ভারত', 'place'],
        ['চীন', 'place'],
        ['জাপান', 'place'],
      ]),
    );
  });

  it('reads a text of unknown language by its script', () => {
    expect(names(null, 'خبر', 'قال رئيس الوزراء كير ستارمر في لندن إن الاقتصاد يتحسن.')).toEqual(
      expect.arrayContaining(['كير ستارمر', 'لندن']),
    );
  });

  it('keeps the Latin names such a text quotes', () => {
    expect(
      names('ar', 'ناسا', 'أطلقت وكالة NASA صاروخا جديدا من فلوريدا. وقالت NASA إن الإطلاق نجح.'),
    ).toContain('NASA');
  });

  it('leaves text in scripts with capitals to the capitals', () => {
    expect(isMostlyCaseless('President Joe Biden met Keir Starmer in London')).toBe(false);
    expect(isMostlyCaseless('Президент встретился с премьером')).toBe(false);
    expect(isMostlyCaseless('Biden في لندن مع ستارمر')).toBe(true);
    expect(
      found('en', 'Biden meets Starmer', 'President Joe Biden met Keir Starmer in London. Biden spoke.'),
    ).toEqual(
      expect.arrayContaining([
        ['Joe Biden', 'person'],
        ['London', 'place'],
      ]),
    );
  });

  it('takes the particles Arabic and Hebrew write against a word off it, never below three letters', () => {
    expect(['هدنة', 'الهدنة', 'والهدنة', 'بالهدنة', 'للهدنة'].map((w) => withoutParticles(w, 'ar'))).toEqual(
      Array(5).fill('هدنه'),
    );
    expect(withoutParticles('الله', 'ar')).toBe('الله');
    expect(withoutParticles('ובישראל', 'he')).toBe(withoutParticles('ישראל', 'he'));
    expect(withoutParticles('بريطانيا', 'fa')).toBe('بريطانيا');
  });

  it('compares words without the letters written several ways', () => {
    expect(matchForm('أوروبا')).toBe(matchForm('اوروبا'));
    expect(matchForm('فرانسه')).toBe(matchForm('فرانسه'));
    expect(matchForm('آمریکا')).toBe(matchForm('امريكا'));
    expect(matchForm('फ़्रांस')).toBe(matchForm('फ्रांस'));
    expect(matchForm('رئیس‌جمهور')).toBe(matchForm('رئيسجمهور'));
  });
});
