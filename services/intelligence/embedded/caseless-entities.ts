// People, organisations and places in text written in a script without capital letters (Arabic, Persian,
// Urdu, Hebrew, Hindi and the other Indian scripts), where entities.ts, which finds a name by its capitals,
// finds none. As for Chinese and Japanese (unspaced-entities.ts), the clues are the words a reader of the
// language tells a name by; each is narrow, so what is found is mostly right and much is not found:
// - a place: a country or continent as ICU names it in the language (Intl.DisplayNames), or one of the
//   large cities and short forms news writes (السعودية, अमेरिका), also with Arabic's and Hebrew's
//   prefixed particles (وفي لندن: "and in London" is ولندن; בישראל, "in Israel");
// - a person: the words after a title (الرئيس جو بايدن, प्रधानमंत्री नरेंद्र मोदी, رئیس‌جمهور ...), up
//   to the first word that cannot be part of a name: a particle, a postposition (ने, का, में), a common
//   verb of reporting, punctuation, and in Arabic a word with the article ال (names do not take it, the
//   nouns and adjectives after them do; عبد الله and بن سلمان are read whole);
// - an organisation: an institution's word and the name it governs (وزارة الخارجية, البنك المركزي
//   الأوروبي, بنك إنجلترا), the name after a company's word (شركة أرامكو), in Hindi the words before
//   the institution's word (टाटा मोटर्स, भारतीय जनता पार्टी), and a few known by their own name.
// A person's later mentions by the last word of the name alone (بايدن, मोदी) are counted as theirs.
import type { Entity } from '../provider.ts';
import { countryAndContinentNames } from './name-clues.ts';
import type { Sentence } from './sentences.ts';
import type { Token } from './token.ts';

/** A name found, before scoring: the same shape entities.ts scores its own candidates in. */
export interface ScoredName {
  name: string;
  type: Entity['type'];
  mentions: number;
  score: number;
}

const list = (words: string) => words.split(/\s+/u).filter((w) => w.length > 0);

interface Clues {
  /** Titles before a person's name; a title of several words is written with spaces. */
  titles: string[];
  /** Institutions whose name is the word and what it governs (وزارة الخارجية). */
  institutions: string[];
  /** Words for a company written before its name, which is the name alone (شركة أرامكو). */
  companiesBefore: string[];
  /** Last words of an organisation's name, the name being the words before and it (टाटा मोटर्स). */
  organisationEnds: string[];
  organisations: string[];
  places: string[];
  /** Words after which a name never goes on: particles and verbs of reporting (beyond the stop words). */
  stops: string[];
  /** Stop words that are also names' words (Hindi's जो is "who", and Joe). */
  nameStopWords: string[];
}

const clues: Record<string, Clues> = {
  ar: {
    titles: list(
      'الرئيس رئيس الرئيسة رئيسة الملك الملكة الأمير الأميرة الشيخ السيد السيدة الوزير الوزيرة النائب ' +
        'السفير السفيرة المدرب اللاعب الدكتور الجنرال اللواء العميد المشير القاضي الزعيم زعيم المستشار ' +
        'المستشارة المرشد البابا الإمام المبعوث المتحدث المتحدثة الناطق الكاتب الفنان الفنانة المغني الممثل ' +
        'الممثلة المدير المديرة مدير مديرة قائد المحلل الخبير المحافظ محافظ حاكم الحاكم',
    ).concat([
      'رئيس الوزراء',
      'رئيسة الوزراء',
      'رئيس الحكومة',
      'رئيس الجمهورية',
      'رئيس مجلس الوزراء',
      'ولي العهد',
      'الأمين العام',
      'الرئيس التنفيذي',
      'الرئيسة التنفيذية',
      'وزير الخارجية',
      'وزير الدفاع',
      'وزير المالية',
      'وزير الداخلية',
      'وزير الاقتصاد',
      'وزير الطاقة',
      'وزير النفط',
      'وزير الصحة',
      'وزير التعليم',
      'وزير العدل',
      'وزير التجارة',
      'وزيرة الخارجية',
      'وزيرة الدفاع',
      'وزيرة المالية',
      'وزيرة الداخلية',
      'وزيرة الاقتصاد',
      'وزيرة الصحة',
      'وزيرة التجارة',
    ]),
    institutions: list(
      'البنك بنك المصرف مصرف وزارة منظمة جامعة حزب حركة مجلس هيئة وكالة صندوق محكمة اتحاد الاتحاد جمعية ' +
        'مؤسسة المؤسسة شرطة بورصة',
    ),
    companiesBefore: list('شركة مجموعة'),
    organisationEnds: [],
    organisations: list('الناتو أوبك حماس اليونسكو اليونيسف فيفا ناسا').concat([
      'الأمم المتحدة',
      'الاتحاد الأوروبي',
      'حلف شمال الأطلسي',
      'جامعة الدول العربية',
      'البنك الدولي',
      'صندوق النقد الدولي',
      'منظمة الصحة العالمية',
      'مجلس الأمن',
      'حزب الله',
      'ريال مدريد',
      'مانشستر سيتي',
      'مانشستر يونايتد',
      'باريس سان جيرمان',
      'بايرن ميونخ',
    ]),
    places: list(
      'السعودية أمريكا أميركا بريطانيا الإمارات واشنطن لندن باريس موسكو بكين برلين روما مدريد طوكيو ' +
        'القاهرة الإسكندرية الرياض جدة مكة دبي أبوظبي الدوحة الكويت المنامة مسقط غزة القدس بيروت دمشق ' +
        'بغداد البصرة الموصل طهران كييف نيويورك أنقرة إسطنبول الخرطوم طرابلس تونس الرباط الدار الجزائر ' +
        'عمّان إدلب حلب الخليل نابلس جنين رفح خانيونس أوروبا آسيا أفريقيا إفريقيا',
    ).concat(['الشرق الأوسط', 'الضفة الغربية', 'رام الله', 'قطاع غزة', 'الدار البيضاء', 'الخليج العربي']),
    stops: list(
      'قال قالت يقول تقول أكد أكدت أعلن أعلنت أضاف أضافت أشار أشارت دعا دعت وصل وصلت التقى بحث زار يزور ' +
        'يلتقي أوضح أوضحت شدد شددت طالب طالبت رحب رحبت وقع وقعت صرح صرحت اعتبر اعتبرت كشف كشفت نفى نفت ' +
        'أمس اليوم غدا خلال عقب بعد قبل حيث الذي التي إن أن عن في من إلى على مع بنسبة نحو حوالي أكثر أقل ' +
        'وفق وفقا حسب بسبب نتيجة ضد عبر رغم سجل سجلت فاز فازت خسر خسرت تعادل قاد أحرز رفض رفضت حكومة دولة',
    ),
    nameStopWords: [],
  },
  fa: {
    titles: list(
      'رئیس‌جمهور رئیس‌جمهوری نخست‌وزیر وزیر آقای خانم سخنگوی دبیرکل رهبر پادشاه شاه سفیر مربی دکتر سردار ' +
        'ژنرال سرلشکر سرتیپ شاهزاده پاپ مدیرعامل رئیس',
    ).concat(['رئیس جمهور', 'رئیس جمهوری', 'نخست وزیر', 'وزیر امور خارجه', 'وزیر خارجه', 'وزیر دفاع']),
    institutions: list('بانک وزارت سازمان دانشگاه حزب مجلس شورای دادگاه صندوق خبرگزاری'),
    companiesBefore: list('شرکت گروه'),
    organisationEnds: [],
    organisations: list('ناتو اوپک حماس یونسکو یونیسف فیفا ناسا').concat([
      'سازمان ملل',
      'سازمان ملل متحد',
      'اتحادیه اروپا',
      'بانک جهانی',
      'صندوق بین‌المللی پول',
      'سازمان بهداشت جهانی',
      'شورای امنیت',
      'حزب‌الله',
    ]),
    places: list(
      'آمریکا امریکا تهران واشنگتن لندن پاریس مسکو پکن برلین غزه کی‌یف اورشلیم بغداد دمشق بیروت کابل ' +
        'استانبول آنکارا مشهد اصفهان شیراز تبریز قم اهواز ریاض دوحه دبی قاهره',
    ).concat(['خاورمیانه', 'کرانه باختری', 'خلیج فارس']),
    stops: list(
      'گفت گفته کرد کرده است شد شده بود دارد کند گفتند کردند امروز دیروز روز در به از با که را و دولت کشور ' +
        'انقلاب جمهوری اسلامی',
    ),
    nameStopWords: [],
  },
  ur: {
    titles: list('وزیراعظم صدر وزیر جناب سفیر کپتان کوچ ڈاکٹر جنرال گورنر چیئرمین ترجمان').concat([
      'وزیر اعظم',
      'وزیر خارجہ',
      'وزیر اعلیٰ',
      'چیف جسٹس',
    ]),
    institutions: list('بینک وزارت تنظیم یونیورسٹی جماعت'),
    companiesBefore: list('کمپنی'),
    organisationEnds: [],
    organisations: list('نیٹو').concat(['اقوام متحدہ', 'یورپی یونین', 'عالمی بینک', 'تحریک انصاف']),
    places: list(
      'پاکستان امریکہ اسلام‌آباد لاہور کراچی پشاور کوئٹہ راولپنڈی ملتان دہلی کابل لندن واشنگٹن بیجنگ ' +
        'ماسکو غزہ ریاض دبئی تہران کشمیر پنجاب سندھ بلوچستان',
    ).concat(['اسلام آباد']),
    stops: list('نے کا کی کے کو سے میں پر اور بھی ہی تو کہا کہ ہے ہیں تھا تھی تھے آج کل'),
    nameStopWords: [],
  },
  he: {
    titles: list(
      'הנשיא נשיא השר שר השרה שרת מר גב׳ גב\' ד"ר ד״ר פרופ׳ הרב הגנרל האלוף המלך המלכה הדובר',
    ).concat([
      'ראש הממשלה',
      'ראש האופוזיציה',
      'שר החוץ',
      'שר הביטחון',
      'שר האוצר',
      'שר הפנים',
      'המזכיר הכללי',
    ]),
    institutions: list('בנק משרד אוניברסיטת מפלגת ארגון'),
    companiesBefore: list('חברת קבוצת'),
    organisationEnds: [],
    organisations: list('נאט"ו נאט״ו חמאס חיזבאללה אופ"ק הכנסת צה"ל צה״ל').concat([
      'האומות המאוחדות',
      'האיחוד האירופי',
      'הבנק העולמי',
      'קרן המטבע הבינלאומית',
    ]),
    places: list(
      'ירושלים אמריקה וושינגטון לונדון פריז מוסקבה בייג׳ינג ברלין עזה קייב חיפה אילת באר טהרן ביירות דמשק ' +
        'קהיר עמאן',
    ).concat(['תל אביב', 'באר שבע', 'המזרח התיכון', 'הגדה המערבית', 'רצועת עזה']),
    stops: list('אמר אמרה הוסיף הוסיפה הודיע הודיעה היום אתמול מחר כי את של על עם'),
    nameStopWords: [],
  },
  hi: {
    titles: list(
      'प्रधानमंत्री राष्ट्रपति मुख्यमंत्री उपमुख्यमंत्री उपराष्ट्रपति मंत्री गृहमंत्री वित्तमंत्री विदेशमंत्री ' +
        'रक्षामंत्री श्री श्रीमती सुश्री डॉ डॉक्टर नेता सांसद विधायक कप्तान अध्यक्ष प्रवक्ता सचिव महासचिव ' +
        'राज्यपाल न्यायमूर्ति जज कोच सीईओ चेयरमैन निदेशक अभिनेता अभिनेत्री बल्लेबाज गेंदबाज खिलाड़ी राजा ' +
        'रानी पोप जनरल प्रमुख प्रोफेसर कमिश्नर उद्योगपति गायक गायिका पीएम सीएम गवर्नर महापौर मेयर',
    ),
    institutions: [],
    companiesBefore: [],
    organisationEnds: list(
      'पार्टी बैंक मंत्रालय विश्वविद्यालय कंपनी लिमिटेड मोटर्स इंडस्ट्रीज ग्रुप समूह संगठन आयोग परिषद बोर्ड ' +
        'निगम सेना पुलिस न्यायालय कोर्ट एयरलाइंस टेक्नोलॉजीज फाउंडेशन संस्थान',
    ),
    organisations: list('भाजपा कांग्रेस इसरो नाटो आरबीआई सेबी बीसीसीआई यूनेस्को नासा').concat([
      'संयुक्त राष्ट्र',
      'यूरोपीय संघ',
      'विश्व बैंक',
      'अंतरराष्ट्रीय मुद्रा कोष',
      'विश्व स्वास्थ्य संगठन',
    ]),
    places: list(
      'दिल्ली मुंबई कोलकाता चेन्नई बेंगलुरु बेंगलुरू हैदराबाद पुणे लखनऊ पटना जयपुर भोपाल अहमदाबाद ' +
        'चंडीगढ़ वाराणसी बिहार महाराष्ट्र गुजरात कश्मीर पंजाब राजस्थान केरल तमिलनाडु कर्नाटक असम ओडिशा ' +
        'झारखंड छत्तीसगढ़ उत्तराखंड हरियाणा अमेरिका वॉशिंगटन वाशिंगटन लंदन मॉस्को बीजिंग दुबई इस्लामाबाद ' +
        'ढाका काठमांडू कोलंबो गाजा कीव यूरोप एशिया अफ्रीका',
    ).concat(['नई दिल्ली', 'उत्तर प्रदेश', 'मध्य प्रदेश', 'पश्चिम बंगाल', 'आंध्र प्रदेश', 'हिमाचल प्रदेश']),
    stops: list(
      'ने का की के को से में पर और तथा एवं या ही भी तो है हैं था थी थे कि जी आज कल सोमवार मंगलवार बुधवार ' +
        'गुरुवार शुक्रवार शनिवार रविवार कहा बताया योजना सरकार कार्यालय पद चुनाव आवास भवन',
    ),
    nameStopWords: list('जो'),
  },
};

/** Letters of scripts with capitals: a text mostly without them is read here. */
const cased = /[\p{Lu}\p{Ll}\p{Lt}]/gu;
const letters = /\p{L}/gu;

/** Whether most of the text's letters belong to scripts without capital letters. */
export function isMostlyCaseless(text: string): boolean {
  const all = text.match(letters)?.length ?? 0;
  return all > 0 && (text.match(cased)?.length ?? 0) * 2 < all;
}

/**
 * The form words are compared in: without Arabic's vowel marks and tatweel, Devanagari's nukta or the
 * zero-width non-joiner, with the letters written several ways made one (أ إ آ ا; ى ي ی; ة ه; ك ک).
 */
export function matchForm(word: string): string {
  return word
    .normalize('NFC')
    .replace(/[\u064b-\u065f]|\u0670|\u0640|\u093c|\u09bc|\u200c|\u200d/gu, '')
    .replace(/[أإآٱ]/gu, 'ا')
    .replace(/[ىی]/gu, 'ي')
    .replace(/[ةۀ]/gu, 'ه')
    .replace(/ک/gu, 'ك')
    .toLowerCase();
}

/** The particles Arabic and Hebrew write joined to the front of a word: "and", "in", "to", "the"... */
const prefixes: Record<string, RegExp> = {
  ar: /^(?:[وف]?[بلك]|[وف])(?=\S{2})/u,
  he: /^(?:[ו]?[הבלמשכ]|ו)(?=\S{2})/u,
};
/** The case endings Bengali writes joined to the end of a noun: ভারতের, "of India"; ঢাকায়, "in Dhaka". */
const suffixes: Record<string, RegExp> = {
  bn: /(?<=\S{2})(?:ের|এর|য়ের|কে|তে|য়|র|ে)$/u,
};

/**
 * The forms a word is looked up in: as written first, then with the particles in front of it (Arabic,
 * Hebrew) or the case ending after it (Bengali) taken off.
 */
function variantsOf(form: string, language: string): string[] {
  const forms = [form];
  const prefix = prefixes[language]?.exec(form);
  if (prefix) {
    const rest = form.slice(prefix[0].length);
    // ل before the article: للولايات is ل + الولايات.
    forms.push(language === 'ar' && /^ل/u.test(rest) && prefix[0].endsWith('ل') ? `ا${rest}` : rest);
    if (prefix[0].length === 2) forms.push(form.slice(1));
  }
  if (language === 'ar' && /^[وف]?لل/u.test(form)) forms.push(`ا${form.replace(/^[وف]?ل/u, '')}`);
  const suffix = suffixes[language]?.exec(form);
  if (suffix) forms.push(form.slice(0, -suffix[0].length));
  return forms;
}

/** A phrase of a list: its words' forms, and how the list writes it. */
interface Phrase {
  forms: string[];
  text: string;
}

/** Phrases by their first word's form, longest first. */
class Phrases {
  private readonly byFirst = new Map<string, Phrase[]>();

  constructor(phrases: Iterable<string>) {
    for (const text of phrases) {
      const forms = text.split(/\s+/u).map(matchForm);
      if (forms[0] === undefined || forms[0] === '') continue;
      const known = this.byFirst.get(forms[0]) ?? [];
      // Two spellings of one form (آمریکا, امریکا): the first listed is the one shown.
      if (known.some((p) => p.forms.join(' ') === forms.join(' '))) continue;
      known.push({ forms, text });
      this.byFirst.set(forms[0], known);
    }
    for (const known of this.byFirst.values()) known.sort((a, b) => b.forms.length - a.forms.length);
  }

  /** The phrase the words from `from` spell (the first with its particles off, if need be). */
  phraseAt(forms: readonly string[][], from: number): Phrase | undefined {
    for (const first of forms[from] ?? []) {
      for (const phrase of this.byFirst.get(first) ?? []) {
        if (phrase.forms.every((w, k) => k === 0 || forms[from + k]?.[0] === w)) return phrase;
      }
    }
    return undefined;
  }

  /** How many words from `from` spell a phrase; 0: none. */
  at(forms: readonly string[][], from: number): number {
    return this.phraseAt(forms, from)?.forms.length ?? 0;
  }
}

interface Reader {
  language: string;
  titles: Phrases;
  institutions: Phrases;
  companiesBefore: Phrases;
  organisationEnds: Set<string>;
  organisations: Phrases;
  places: Phrases;
  stops: Set<string>;
  nameStopWords: Set<string>;
}

const readers = new Map<string, Reader | null>();

/** The language of a text whose language is not known, by the first of these scripts it is written in. */
const byScript: [RegExp, string][] = [
  [/\p{sc=Arabic}/u, 'ar'],
  [/\p{sc=Hebrew}/u, 'he'],
  [/\p{sc=Devanagari}/u, 'hi'],
  [/\p{sc=Bengali}/u, 'bn'],
];

function readerFor(language: string | null, text: string): Reader | null {
  const code =
    language?.split(/[-_]/u)[0]!.toLowerCase() ?? byScript.find(([script]) => script.test(text))?.[1] ?? '';
  if (!readers.has(code)) readers.set(code, buildReader(code));
  return readers.get(code)!;
}

function buildReader(language: string): Reader | null {
  const own = clues[language];
  const countries = language === '' ? [] : countryAndContinentNames(language);
  if (!own && countries.length === 0) return null;
  const forms = (words: readonly string[] | undefined) => new Set((words ?? []).map(matchForm));
  return {
    language,
    titles: new Phrases(own?.titles ?? []),
    institutions: new Phrases(own?.institutions ?? []),
    companiesBefore: new Phrases(own?.companiesBefore ?? []),
    organisationEnds: forms(own?.organisationEnds),
    organisations: new Phrases(own?.organisations ?? []),
    places: new Phrases([...countries, ...(own?.places ?? [])]),
    stops: forms(own?.stops),
    nameStopWords: forms(own?.nameStopWords),
  };
}

/** A sentence's words, each with its forms (as written, then without prefixed particles). */
interface Words {
  tokens: Token[];
  forms: string[][];
}

function wordsOf(sentence: Sentence, language: string): Words {
  const tokens = sentence.tokens.filter(
    (t) => t.kind === 'word' || t.kind === 'number' || /\S/u.test(t.text),
  );
  return { tokens, forms: tokens.map((t) => variantsOf(matchForm(t.text), language)) };
}

interface Found {
  /** The name's words as written, or as the list that knew them writes them (without particles). */
  words: string[];
  type: Entity['type'];
}

/** Whether the token can be a word of a person's or an organisation's name. */
function nameWord(reader: Reader, words: Words, i: number): boolean {
  const t = words.tokens[i];
  if (!t || t.kind !== 'word' || /\d/u.test(t.text) || !isMostlyCaseless(t.text)) return false;
  const form = words.forms[i]![0]!;
  if (reader.stops.has(form) || reader.organisationEnds.has(form)) return false;
  if (t.stopWord && !reader.nameStopWords.has(form) && !arabicNameJoins.has(form)) return false;
  return ![
    reader.titles,
    reader.places,
    reader.institutions,
    reader.companiesBefore,
    reader.organisations,
  ].some((phrases) => phrases.at(words.forms, i) > 0);
}

/** A word that is neither a stop word nor one of the language's stops (`anyStopWord`: stop words pass). */
function plainWord(reader: Reader, words: Words, i: number, anyStopWord = false): boolean {
  const t = words.tokens[i];
  const form = words.forms[i]?.[0] ?? '';
  return t?.kind === 'word' && !reader.stops.has(form) && (anyStopWord || !t.stopWord);
}

const arabicArticle = /^ال/u;
/** Arabic's "of the" (للأمم المتحدة): what follows a title before the name, never a name itself. */
const arabicOfThe = /^لل/u;
/** Words that join the parts of an Arabic name: عبد الله, محمد بن سلمان, أبو مازن. */
const arabicNameJoins = new Set(['عبد', 'بن', 'ابن', 'بنت', 'ابو'].map(matchForm));
/** Words of time an Arabic institution's name does not go on into: وزارة الخارجية اليوم. */
const arabicTimeWords = new Set(
  'اليوم الأحد الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت الماضي الماضية المقبل المقبلة الجاري الحالي الحالية السابق السابقة'
    .split(' ')
    .map(matchForm),
);
/** A letter's name in an initialism written out (جي بي مورغان: J. P. Morgan). */
const spelledLetter = (form: string) => form.length <= 2;

/**
 * The person's name after a title at `from`: two words (not counting the words that join an Arabic name's
 * parts; three when they are all short syllables, as a Chinese name written in Urdu or Persian, شی جن پنگ).
 * In Arabic, what describes the title comes first and is passed over: adjectives (الرئيس الأمريكي), "of
 * the ..." (الأمين العام للأمم المتحدة) and a name already found there. One word alone is no name: the
 * word after a title is as often a verb (الرئيس يزور).
 */
function personAfter(reader: Reader, words: Words, from: number, claimed: ReadonlySet<number>) {
  let start = from;
  if (reader.language === 'ar') {
    while (start < from + 4) {
      const form = words.forms[start]?.[0] ?? '';
      if (claimed.has(start) || arabicOfThe.test(form)) start++;
      else if (arabicArticle.test(form) && plainWord(reader, words, start)) start++;
      else break;
    }
  }
  let end = start;
  let parts = 0;
  let short = true;
  while (nameWord(reader, words, end) && !claimed.has(end)) {
    const form = words.forms[end]![0]!;
    const join = arabicNameJoins.has(form);
    const joined = end > start && arabicNameJoins.has(words.forms[end - 1]![0]!);
    if (reader.language === 'ar' && arabicArticle.test(form) && !joined) break;
    if (!join && !joined && parts >= (short ? 3 : 2)) break;
    end++;
    if (!join && !joined) {
      parts++;
      short &&= [...form].length <= 3;
    }
  }
  // A name does not end on a joining word (محمد بن).
  while (end > start && arabicNameJoins.has(words.forms[end - 1]![0]!)) end--;
  return end - start >= 2 ? { start, end } : null;
}

/** The name of two or three words right before `comma` (عباس عراقچی، وزیر امور خارجه), or null. */
function personBefore(reader: Reader, words: Words, comma: number, claimed: ReadonlySet<number>) {
  let start = comma;
  while (start > comma - 3 && start > 0 && !claimed.has(start - 1) && nameWord(reader, words, start - 1))
    start--;
  const before = words.tokens[start - 1];
  // The whole name: what stands before it is no word of it (a particle, the sentence's start).
  if (comma - start < 2 || (before && nameWord(reader, words, start - 1))) return null;
  if (reader.language === 'ar' && words.forms.slice(start, comma).some(([f]) => arabicArticle.test(f!)))
    return null;
  return { start, end: comma };
}

const isComma = (t: Token | undefined) => t !== undefined && /^[,،]$/u.test(t.text);

/** The names one sentence shows, by the clues above. */
function namesIn(reader: Reader, words: Words): Found[] {
  const found: Found[] = [];
  const claimed = new Set<number>();
  // `listed`: the phrase of a list the words start with, written as the list writes it, so that a name
  // carrying particles (ولندن, "and London") or spelt another way is shown in one form.
  const take = (from: number, to: number, type: Entity['type'], listed?: Phrase) => {
    const written = words.tokens.slice(from, to).map((t) => t.text);
    const text = listed ? [...listed.text.split(/\s+/u), ...written.slice(listed.forms.length)] : written;
    found.push({ words: text, type });
    for (let k = from; k < to; k++) claimed.add(k);
  };
  const count = words.tokens.length;
  const form = (k: number) => words.forms[k]?.[0] ?? '';
  // The end of the one-word name at `from` (تسلا, not تسلا تراجعت: the next word is as often a verb), the
  // letters of an initialism before it taken with it (جي بي مورغان); `from` itself if there is none.
  const oneName = (from: number) => {
    let end = from;
    while (end < from + 3 && plainWord(reader, words, end, true) && spelledLetter(form(end))) end++;
    if (nameWord(reader, words, end) && !(reader.language === 'ar' && arabicArticle.test(form(end)))) end++;
    return end;
  };
  // Organisations known by name first: a title may stand before one (الأمين العام للأمم المتحدة).
  for (let i = 0; i < count; i++) {
    const known = reader.organisations.phraseAt(words.forms, i);
    if (known) {
      take(i, i + known.forms.length, 'organization', known);
      i += known.forms.length - 1;
    }
  }
  for (let i = 0; i < count; i++) {
    if (claimed.has(i)) continue;
    const title = reader.titles.at(words.forms, i);
    if (title > 0) {
      const person =
        personAfter(reader, words, i + title, claimed) ??
        (isComma(words.tokens[i - 1]) ? personBefore(reader, words, i - 1, claimed) : null);
      if (person) take(person.start, person.end, 'person');
      // The words between the title and the name may hold an organisation or a place: go on after the title.
      i += title - 1;
      continue;
    }
    const company = reader.companiesBefore.at(words.forms, i);
    if (company > 0) {
      const end = oneName(i + company);
      if (end > i + company) take(i + company, end, 'organization');
      i = Math.max(i, end - 1);
      continue;
    }
    const institutionPhrase = reader.institutions.phraseAt(words.forms, i);
    const institution = institutionPhrase?.forms.length ?? 0;
    if (institution > 0) {
      let end = i + institution;
      const governs = (k: number) =>
        words.tokens[k]?.kind === 'word' &&
        !claimed.has(k) &&
        !reader.stops.has(form(k)) &&
        !(words.tokens[k].stopWord && !reader.nameStopWords.has(form(k))) &&
        !arabicTimeWords.has(form(k));
      if (reader.language === 'ar') {
        // وزارة الخارجية الأمريكية, البنك المركزي الأوروبي; or a name without the article: بنك إنجلترا,
        // بنك جي بي مورغان (the letters of an initialism, then its name).
        while (end < i + institution + 3 && governs(end) && arabicArticle.test(form(end))) end++;
        if (end === i + institution) end = oneName(end);
      } else while (end < i + institution + 3 && governs(end)) end++;
      if (end > i + institution) {
        take(i, end, 'organization', institutionPhrase);
        i = end - 1;
      }
      continue;
    }
    if (reader.organisationEnds.has(form(i)) && i > 0) {
      let from = i;
      while (from > i - 2 && from > 0 && !claimed.has(from - 1) && nameWord(reader, words, from - 1)) from--;
      if (from < i) take(from, i + 1, 'organization');
      continue;
    }
  }
  for (let i = 0; i < count; i++) {
    if (claimed.has(i)) continue;
    const place = reader.places.phraseAt(words.forms, i);
    const length = place?.forms.length ?? 0;
    if (place && !Array.from({ length }, (_, k) => i + k).some((k) => claimed.has(k))) {
      take(i, i + length, 'place', place);
      i += length - 1;
    }
  }
  return found;
}

/** The key a name is counted and merged by: its words' forms. */
const keyOf = (words: readonly string[]) => words.map(matchForm).join(' ');

/**
 * The entities of a text mostly in a script without capitals, scored as entities.ts scores its own
 * (mentions, twice for the headline's, weighted by how early the name first comes). Empty for a language
 * none of whose clues are known.
 */
export function caselessNames(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  language: string | null,
): ScoredName[] {
  const reader = readerFor(language, [...title, ...sentences.slice(0, 3)].map((s) => s.text).join(' '));
  if (!reader) return [];
  const titleWords = title.map((s) => wordsOf(s, reader.language));
  const bodyWords = sentences.map((s) => wordsOf(s, reader.language));
  const candidates = new Map<string, { found: Found; firstSentence: number }>();
  const visit = (words: Words, index: number) => {
    for (const found of namesIn(reader, words)) {
      const key = keyOf(found.words);
      if (!candidates.has(key)) candidates.set(key, { found, firstSentence: index });
    }
  };
  titleWords.forEach((w) => visit(w, 0));
  bodyWords.forEach((w, i) => visit(w, i));
  const keys = [...candidates.keys()];
  // A person's last word alone is the person (بايدن of جو بايدن) when only one name ends with it.
  const surnames = new Map<string, string | null>();
  for (const [key, { found }] of candidates) {
    if (found.type !== 'person' || found.words.length < 2) continue;
    const last = matchForm(found.words.at(-1)!);
    surnames.set(last, surnames.has(last) ? null : key);
  }
  // The names by their first word's form, each with its words' forms: a word is checked against the names
  // it can start, not all of them (a long article names hundreds).
  const byFirst = new Map<string, { key: string; parts: string[] }[]>();
  for (const key of keys) {
    const parts = key.split(' ');
    byFirst.set(parts[0]!, [...(byFirst.get(parts[0]!) ?? []), { key, parts }]);
  }
  const tally = (all: readonly Words[]) => {
    const counts = new Map<string, number>();
    for (const words of all) {
      for (let i = 0; i < words.forms.length; i++) {
        for (const first of new Set(words.forms[i])) {
          for (const { key, parts } of byFirst.get(first) ?? []) {
            if (parts.every((p, k) => k === 0 || words.forms[i + k]?.[0] === p))
              counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
        const owner = words.forms[i]!.map((f) => surnames.get(f)).find((k) => k);
        if (owner) {
          const parts = owner.split(' ');
          const start = i - (parts.length - 1);
          const inFull = start >= 0 && parts.every((p, k) => words.forms[start + k]?.includes(p));
          if (!inFull) counts.set(owner, (counts.get(owner) ?? 0) + 1);
        }
      }
    }
    return counts;
  };
  const bodyCounts = tally(bodyWords);
  const titleCounts = tally(titleWords);
  const count = Math.max(1, sentences.length);
  // A name inside a longer one of the same kind is that one (وزارة الخارجية of وزارة الخارجية الأمريكية).
  return keys
    .filter(
      (key) =>
        !keys.some(
          (other) =>
            other !== key &&
            ` ${other} `.includes(` ${key} `) &&
            candidates.get(other)!.found.type === candidates.get(key)!.found.type,
        ),
    )
    .map((key) => {
      const { found, firstSentence } = candidates.get(key)!;
      const mentions = Math.max(1, bodyCounts.get(key) ?? 0);
      const titleMentions = titleCounts.get(key) ?? 0;
      return {
        name: found.words.join(' '),
        type: found.type,
        // As the schema (and the cased scripts' count) has it: in the headline too.
        mentions: (bodyCounts.get(key) ?? 0) + titleMentions || 1,
        score: (mentions + 2 * titleMentions) * (1 + (1 - firstSentence / count)),
      };
    });
}

/**
 * Whether a word is a word of one of the names, read as names are read (particles and case endings off,
 * letters written several ways made one): keywords leave names to entities, and in these scripts there
 * are no capitals to tell a name's words by (मोटर्स of टाटा मोटर्स).
 */
export function isNameWordOf(names: readonly string[], language: string | null): (word: string) => boolean {
  const code = language?.split(/[-_]/u)[0]!.toLowerCase() ?? '';
  const words = new Set(names.flatMap((name) => name.split(/\s+/u).map(matchForm)));
  return (word) => variantsOf(matchForm(word), code).some((form) => words.has(form));
}

/**
 * One form for the ways Arabic and Hebrew write a word with the particles joined to its front ("and",
 * "in", "to", the article): الهدنة, والهدنة, بالهدنة and هدنة are هدنه. What a word keeps is at least three
 * letters, so a short word is never taken apart. Other languages' words are returned as they are.
 */
export function withoutParticles(word: string, language: string | null): string {
  const form = matchForm(word);
  const enough = (rest: string) => [...rest].length >= 3;
  let rest = form;
  if (language === 'ar') {
    for (const particle of [/^[وف]/u, /^(?:لل|[بلك])/u, /^ال/u]) {
      const match = particle.exec(rest);
      if (match && enough(rest.slice(match[0].length))) rest = rest.slice(match[0].length);
    }
  } else if (language === 'he') {
    for (const particle of [/^ו/u, /^[הבלמשכ]/u]) {
      const match = particle.exec(rest);
      if (match && enough(rest.slice(match[0].length))) rest = rest.slice(match[0].length);
    }
  }
  return rest;
}

/**
 * The test isNameWordOf gives for the entities' names when the text is mostly in scripts without capitals;
 * elsewhere a capital tells a name's words, and no word is one here.
 */
export function caselessNameWords(
  text: string,
  entities: readonly Pick<Entity, 'name'>[],
  language: string | null,
): (word: string) => boolean {
  if (entities.length === 0 || !isMostlyCaseless(text)) return () => false;
  return isNameWordOf(
    entities.map((e) => e.name),
    language,
  );
}
