import { describe, expect, it } from 'vitest';
import { parseSentences } from './sentences.ts';
import { articleSentiment } from './sentiment.ts';
import { inflectionOf, sentimentLexiconFor } from './translated-lexicon.ts';
import { translatedValence } from './translated-sentiment.ts';
import { renewedStem, stemmerFor } from './word-stems.ts';

const valence = (language: string, text: string) =>
  translatedValence(parseSentences(text, language)[0]!, {
    language,
    lexicon: sentimentLexiconFor(language)!,
    stem: stemmerFor(language),
  });
const sentiment = (language: string, text: string, title = '') =>
  articleSentiment(parseSentences(title, language), parseSentences(text, language), language);

describe('sentiment in other languages', () => {
  it.each([
    [
      'es',
      'Al menos 40 muertos y cientos de heridos tras el terremoto. Las víctimas quedaron atrapadas bajo los escombros y el gobierno declaró el estado de emergencia.',
    ],
    [
      'fr',
      "Au moins 40 morts et des centaines de blessés après le séisme. Les victimes sont piégées sous les décombres et la crise s'aggrave.",
    ],
    [
      'de',
      'Mindestens 40 Tote und Hunderte Verletzte nach dem Erdbeben. Die Opfer sind unter den Trümmern eingeschlossen, die Krise verschärft sich.',
    ],
    [
      'ru',
      'В результате землетрясения погибли 40 человек, сотни ранены. Жертвы оказались под завалами, кризис усугубляется.',
    ],
    ['zh', '地震造成至少40人死亡，数百人受伤。救援人员正在废墟中寻找遇难者，灾难让当地陷入危机。'],
    ['ar', 'قتل 40 شخصا على الأقل وأصيب المئات في الزلزال. الضحايا محاصرون تحت الأنقاض والأزمة تتفاقم.'],
  ])('reads a disaster as negative (%s)', (language, text) => {
    expect(sentiment(language, text).label).toBe('negative');
  });

  it.each([
    [
      'es',
      'La selección celebra una victoria histórica. Los aficionados están felices con el éxito y el entrenador elogió el excelente trabajo del equipo.',
    ],
    [
      'it',
      'La squadra festeggia una vittoria storica. I tifosi sono felici del successo e il pubblico applaude.',
    ],
    ['zh', '中国队在决赛中取得历史性胜利，球迷们非常高兴，庆祝这一伟大的成功。'],
  ])('reads a triumph as positive (%s)', (language, text) => {
    expect(sentiment(language, text).label).toBe('positive');
  });

  it.each([
    [
      'es',
      'El ayuntamiento publicó el calendario de las obras, que empezarán en marzo. La calle permanecerá abierta al tráfico durante los trabajos, según informó el concejal.',
    ],
    [
      'fr',
      "Le conseil municipal se réunira mardi pour examiner le budget. La séance commencera à 10 heures à l'hôtel de ville.",
    ],
    [
      'it',
      'Il consiglio comunale si riunirà martedì per esaminare il bilancio. La seduta inizierà alle 10 in municipio.',
    ],
    [
      'pt',
      'A câmara municipal se reunirá na terça-feira para analisar o orçamento. A sessão começará às 10 horas.',
    ],
    [
      'nl',
      'De gemeenteraad vergadert dinsdag over de begroting. De vergadering begint om 10 uur in het stadhuis.',
    ],
    ['ru', 'Заседание городского совета пройдет во вторник. На нем обсудят бюджет на следующий год.'],
  ])('calls a notice neutral (%s)', (language, text) => {
    expect(sentiment(language, text)).toEqual({ label: 'neutral', score: 0 });
  });

  it('reverses a word its language negates, within a few words', () => {
    expect(valence('es', 'El plan fue un éxito.')).toBeGreaterThan(0);
    expect(valence('es', 'El plan no fue un éxito.')).toBeLessThan(0);
    // French puts "ne" on the verb and "pas" after it; either negates.
    expect(valence('fr', "L'équipe est heureuse.")).toBeGreaterThan(0);
    expect(valence('fr', "L'équipe n'est pas heureuse.")).toBeLessThan(0);
    expect(valence('de', 'Das Ergebnis war nicht gut.')).toBeLessThan(0);
    expect(valence('ru', 'Это не успех.')).toBeLessThan(0);
  });

  it('finds an inflected word by its stem when its form is not listed', () => {
    const lexicon = sentimentLexiconFor('ru')!;
    expect(lexicon.words.has('успеха')).toBe(false);
    expect(valence('ru', 'Команда добилась успеха.')).toBeGreaterThan(0);
    expect(sentimentLexiconFor('fr')!.words.has('échecs')).toBe(false);
    expect(valence('fr', 'Les échecs se multiplient.')).toBeLessThan(0);
  });

  it('does not take a word derived from a listed one for it', () => {
    // "conseillé" (advised) is listed and shares its stem with "conseil" (a council).
    expect(sentimentLexiconFor('fr')!.words.get('conseillé')).toBeGreaterThan(0);
    expect(valence('fr', 'Le conseil se réunit.')).toBe(0);
    expect(inflectionOf('muertos', 'muert')).toBe(true);
    expect(inflectionOf('conseiller', 'conseil')).toBe(false);
    expect(inflectionOf('heridos', 'her')).toBe(false);
  });

  it('does not count a name, except in German, where every noun has a capital', () => {
    expect(valence('es', 'La victoria llegó tarde.')).toBeGreaterThan(0);
    expect(valence('es', 'Ayer llegó Victoria Pérez.')).toBe(0);
    expect(valence('de', 'Die Opfer warten.')).toBeLessThan(0);
  });

  it('finds an Arabic or Hebrew word written with particles against it as the listed word', () => {
    // حرب (war) is listed, -2; "the war" and "and the war" are not.
    expect(sentimentLexiconFor('ar')!.words.get('الحرب')).toBeUndefined();
    expect(valence('ar', 'يجب وقف الحرب')).toBeLessThan(valence('ar', 'يجب وقف'));
    expect(valence('ar', 'انتهت والحرب')).toBe(valence('ar', 'انتهت حرب'));
  });

  it('does not count the words of a name the entities found, where no capital tells one', () => {
    // محمد (Muhammad) is listed +1: the machine translation of a word that also names people.
    const text = 'قال الوزير محمد العلي إن الاجتماع عقد في القاهرة.';
    const plain = articleSentiment([], parseSentences(text, 'ar'), 'ar');
    const named = articleSentiment([], parseSentences(text, 'ar'), 'ar', [{ name: 'محمد العلي' }]);
    expect(plain.score).toBeGreaterThan(0);
    expect(named.score).toBe(0);
  });

  it('counts a listed phrase once, before its words', () => {
    const lexicon = sentimentLexiconFor('es')!;
    expect(lexicon.words.get('a bordo')).toBe(1);
    expect(lexicon.words.has('bordo')).toBe(false);
    expect(valence('es', 'Subieron a bordo.')).toBe(1);
  });

  it('leaves a language without a lexicon neutral', () => {
    expect(sentimentLexiconFor('is')).toBeNull(); // the package's Icelandic list is empty
    expect(sentiment('is', 'Jarðskjálfti reið yfir og margir létust í hamförunum.')).toEqual({
      label: 'neutral',
      score: 0,
    });
  });

  it('stems with one stemmer a language, replaced after so many words so that its memory stays bounded', () => {
    const stem = stemmerFor('es')!;
    expect(stem('victorias')).toBe('victor');
    expect(stemmerFor('es')).toBe(stem);
    expect(stemmerFor('en')).toBeNull();
    let made = 0;
    const renewed = renewedStem(() => {
      made += 1;
      return { stemWord: (word: string) => word.slice(0, 3) };
    }, 2);
    expect(['uno', 'dos', 'tres', 'cuatro', 'cinco'].map(renewed)).toEqual([
      'uno',
      'dos',
      'tre',
      'cua',
      'cin',
    ]);
    expect(made).toBe(3);
  });
});
