import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.ts';
import { latinSpellings } from './cyrillic-latin.ts';
import { nameCluesFor } from './name-clues.ts';
import { withoutAccents } from './without-accents.ts';
import { parseSentences } from './sentences.ts';

const typed = (language: string, lines: string[]) =>
  Object.fromEntries(
    extractEntities([], parseSentences(lines.join('\n'), language), language).map((e) => [e.name, e.type]),
  );

describe('the kinds of names in other languages', () => {
  it('Spanish: titles and company words before a name, countries, and accented names', () => {
    expect(
      typed('es', [
        'Los despidos afectarán sobre todo a las fábricas de Alemania y Polonia, y a otras de Europa.',
        'La consejera delegada, María López, dijo que los recortes eran dolorosos pero necesarios.',
        'El presidente Pedro Sánchez se reunió con la empresa Iberdrola y con el Banco Santander en Berlín.',
      ]),
    ).toEqual({
      Alemania: 'place',
      Polonia: 'place',
      Europa: 'place',
      'María López': 'person', // the English lexicon's Maria and Lopez, without their accents
      'Pedro Sánchez': 'person',
      Iberdrola: 'organization',
      'Banco Santander': 'organization',
      Berlín: 'place',
    });
  });

  it('Russian: a title with its complement before the name, and countries in any case', () => {
    expect(
      typed('ru', [
        'Сокращения в основном затронут заводы в Германии и Польше, где спрос замедлился.',
        'Министр финансов Антон Силуанов встретился с руководством компании Роснефть.',
        'Генеральный директор Мария Лопес заявила, что сокращения необходимы.',
      ]),
    ).toEqual({
      Германии: 'place',
      Польше: 'place',
      'Антон Силуанов': 'person',
      Роснефть: 'organization',
      'Мария Лопес': 'person',
    });
  });

  it('Russian: a person without a title, by the first or last name the lexicon knows in Latin letters', () => {
    expect(
      typed('ru', [
        'Вчера Мария Лопес выступила на конференции, а Владимир Путин подписал указ.',
        'Об этом сообщил Андрей Белоусов.',
      ]),
    ).toMatchObject({ 'Мария Лопес': 'person', 'Владимир Путин': 'person', 'Андрей Белоусов': 'person' });
  });

  it('French: a group, a minister and a bank', () => {
    expect(
      typed('fr', [
        "Le groupe Renault va supprimer 1 200 emplois en Allemagne, a annoncé l'entreprise mardi.",
        'La ministre Agnès Pannier-Runacher a dénoncé un plan brutal.',
        'La Banque de France reste prudente.',
      ]),
    ).toMatchObject({
      Renault: 'organization',
      Allemagne: 'place',
      'Agnès Pannier-Runacher': 'person',
      'Banque de France': 'organization',
    });
  });

  it('takes a sentence-opening word into the name after it, unless that name starts with a first name', () => {
    expect(
      typed('de', [
        'Deutsche Bank meldet einen Gewinn, die Aktie steigt.',
        'Gestern Olaf Scholz sprach in Berlin.',
      ]),
    ).toMatchObject({ 'Deutsche Bank': 'organization', 'Olaf Scholz': 'person' });
  });

  // Names declined by case (Russian, Ukrainian, Polish; German's genitive): one person in any case, a
  // full name written only in another case given in the case of its short form, titles and the country
  // they are of taken off, a noun opening a sentence before a name in the genitive left out.
  const mentioned = (language: string, lines: string[]) =>
    extractEntities([], parseSentences(lines.join('\n'), language), language).map(
      (e) => `${e.name} (${e.type}, ${e.mentions})`,
    );

  it('Russian: one person in any case, without the title and country before the name', () => {
    expect(
      mentioned('ru', [
        'Президент России Владимир Путин провёл переговоры с президентом Турции Реджепом Тайипом Эрдоганом в Москве.',
        'По словам Путина, стороны обсудили поставки газа.',
        'Эрдоган заявил, что Турция заинтересована в сотрудничестве с Россией.',
        'Встреча Путина и Эрдогана продолжалась три часа.',
        'Переговоры в Москве прошли в закрытом режиме.',
      ]),
    ).toEqual([
      'Владимир Путин (person, 3)',
      'Реджеп Тайип Эрдоган (person, 3)',
      'Москве (place, 2)',
      'Турция (place, 1)',
      'Россией (place, 1)',
    ]);
  });

  it('Polish and Ukrainian: a name in the instrumental given as its short form is written', () => {
    expect(
      mentioned('pl', [
        'Premier Donald Tusk spotkał się w Warszawie z prezydentem Francji Emmanuelem Macronem.',
        'Według Tuska rozmowy dotyczyły bezpieczeństwa Europy.',
        'Macron powiedział, że Francja wspiera Polskę.',
        'Wizyta Macrona w Polsce trwała dwa dni.',
        'Tusk i Macron podpisali w Warszawie traktat o współpracy.',
      ]),
    ).toEqual([
      'Emmanuel Macron (person, 4)',
      'Donald Tusk (person, 3)',
      'Warszawie (place, 2)',
      'Europy (place, 1)',
      'Francja (place, 1)',
      'Polskę (place, 1)',
    ]);
    expect(
      mentioned('uk', [
        'Президент України Володимир Зеленський зустрівся з канцлером Німеччини Олафом Шольцом у Києві.',
        'За словами Зеленського, сторони обговорили постачання зброї.',
        'Шольц заявив, що Німеччина продовжить підтримувати Україну.',
        'Візит Шольца до Києва тривав один день.',
      ]),
    ).toEqual([
      'Олаф Шольц (person, 3)',
      'Володимир Зеленський (person, 2)',
      'Києві (place, 2)',
      'Німеччина (place, 1)',
      'Україну (place, 1)',
    ]);
  });

  it('German: a title written as a noun, a name in the genitive and a noun before one', () => {
    expect(
      mentioned('de', [
        'Bundeskanzler Olaf Scholz hat den französischen Präsidenten Emmanuel Macron in Berlin empfangen.',
        'Nach Angaben des Kanzlers ging es um die Verteidigung Europas.',
        'Macrons Besuch dauerte zwei Tage.',
        'Scholz und Macron unterzeichneten ein Abkommen mit der Europäischen Kommission.',
        'Außenministerin Annalena Baerbock nahm ebenfalls an dem Treffen im Kanzleramt teil.',
      ]),
    ).toEqual([
      'Emmanuel Macron (person, 3)',
      'Olaf Scholz (person, 2)',
      'Berlin (place, 1)',
      'Europas (place, 1)',
      'Europäischen Kommission (organization, 1)',
      'Annalena Baerbock (person, 1)',
    ]);
    // The "s" of a name that is never written without it is the name's own.
    expect(
      mentioned('de', [
        'Siemens Energy meldet einen Verlust.',
        'Der Konzern Siemens Energy will Stellen streichen, wie Siemens mitteilte.',
      ]),
    ).toContain('Siemens Energy (organization, 2)');
  });

  it('takes an institution written with a lowercase noun, or after "der", apart from the person after it', () => {
    expect(
      typed('cs', [
        'Předsedkyně Evropské komise Ursula von der Leyenová dnes v Bruselu jednala.',
        'Podle předsedkyní Evropské komise je dohoda blízko.',
      ]),
    ).toEqual({ 'Evropské komise': 'organization', 'Ursula von der Leyenová': 'person', Bruselu: 'place' });
    expect(
      typed('ru', [
        'Председатель Европейской комиссии Урсула фон дер Ляйен прибыла в Киев.',
        'Фон дер Ляйен встретилась с премьером.',
      ]),
    ).toEqual({ 'Европейской комиссии': 'organization', 'Урсула фон дер Ляйен': 'person', Киев: 'place' });
    expect(
      typed('de', ['Die Präsidentin der Europäischen Kommission Ursula von der Leyen sprach in Berlin.']),
    ).toEqual({
      'Europäischen Kommission': 'organization',
      'Ursula von der Leyen': 'person',
      Berlin: 'place',
    });
  });

  it("cities, particles and institutions' words in Spanish, French, Italian, Portuguese, Dutch and German", () => {
    expect(typed('es', ['El presidente Pedro Sánchez viajó a Bruselas.'])).toEqual({
      'Pedro Sánchez': 'person',
      Bruselas: 'place',
    });
    expect(typed('fr', ['Christine Lagarde parlait à Francfort, Marine Le Pen à Lyon.'])).toEqual({
      'Christine Lagarde': 'person',
      Francfort: 'place',
      'Marine Le Pen': 'person',
      Lyon: 'place',
    });
    expect(typed('it', ['Il presidente della Repubblica Sergio Mattarella era a Roma.'])).toEqual({
      'Sergio Mattarella': 'person',
      Roma: 'place',
    });
    expect(typed('pt', ['O presidente Luiz Inácio Lula da Silva voltou a Brasília.'])).toEqual({
      'Luiz Inácio Lula da Silva': 'person',
      Brasília: 'place',
    });
    // An institution's word at the end of a German compound; "Société" a word of the company's name.
    expect(typed('de', ['Die Europäische Zentralbank hat den Leitzins gesenkt.'])).toEqual({
      'Europäische Zentralbank': 'organization',
    });
    expect(typed('fr', ['La Société Générale a annoncé un plan en France.'])).toEqual({
      'Société Générale': 'organization',
      France: 'place',
    });
    // A thing's name is written with an article: no person for its last word written alone.
    expect(
      typed('de', ['Die Deutsche Telekom hat ihre Prognose erhöht.', 'Die Telekom rechnet mit mehr.']),
    ).toEqual({
      'Deutsche Telekom': 'other',
    });
    expect(typed('nl', ['Premier Dick Schoof sprak in Den Haag.'])).toEqual({
      'Dick Schoof': 'person',
      'Den Haag': 'place',
    });
  });

  it("Russian: a woman's name written only in another case is given in the nominative of its short form", () => {
    expect(
      typed('ru', [
        'Встреча с Марией Захаровой прошла в Москве.',
        'Захарова заявила, что переговоры продолжатся.',
        'Глава ЦБ Эльвира Набиуллина выступила. Решение Эльвиры Набиуллиной поддержали.',
      ]),
    ).toEqual({
      'Мария Захарова': 'person',
      Москве: 'place',
      'Эльвира Набиуллина': 'person',
      ЦБ: 'organization',
    });
  });

  it('takes what a title is of apart from the person after it', () => {
    expect(
      mentioned('ru', [
        'Центральный банк сохранил ключевую ставку на уровне 16%.',
        'Глава Банка России Эльвира Набиуллина заявила, что инфляция замедляется.',
        'Решение Банка России совпало с ожиданиями аналитиков.',
        'Набиуллина также отметила рост кредитования.',
      ]),
    ).toEqual(['Банка России (organization, 2)', 'Эльвира Набиуллина (person, 2)']);
    expect(
      mentioned('pl', [
        'Orlen podpisał umowę z norweskim Equinorem na dostawy gazu.',
        'Prezes Orlenu Daniel Obajtek powiedział, że umowa zapewni bezpieczeństwo energetyczne Polski.',
      ]),
    ).toEqual(expect.arrayContaining(['Orlen (other, 2)', 'Daniel Obajtek (person, 1)']));
    const german = mentioned('de', [
      'Die Deutsche Bank hat im dritten Quartal einen Gewinn erzielt.',
      'Vorstandschef Christian Sewing zeigte sich zufrieden.',
      'Die Aktie der Deutschen Bank stieg in Frankfurt um drei Prozent.',
      'Sewings Strategie zahle sich aus, sagte ein Analyst der Commerzbank.',
    ]);
    // The Deutsche Bank in two cases; an analyst of the Commerzbank is no person called Commerzbank.
    expect(german).toEqual(
      expect.arrayContaining(['Deutsche Bank (organization, 2)', 'Christian Sewing (person, 2)']),
    );
    expect(german.filter((e) => e.startsWith('Commerzbank (person'))).toEqual([]);
  });

  it("Turkish: a name's case suffix after the apostrophe, Czech's cases, Hungarian's family name first", () => {
    expect(
      mentioned('tr', [
        'Cumhurbaşkanı Recep Tayyip Erdoğan, Rusya Devlet Başkanı Vladimir Putin ile Soçi’de görüştü.',
        "Erdoğan'ın açıklamasına göre iki lider tahıl anlaşmasını ele aldı.",
        "Putin, Türkiye'nin arabuluculuk çabalarını övdü.",
        "Görüşmenin ardından Erdoğan Ankara'ya döndü.",
      ]),
    ).toEqual([
      'Recep Tayyip Erdoğan (person, 3)',
      'Vladimir Putin (person, 2)',
      'Soçi (place, 1)',
      'Türkiye (place, 1)',
      'Ankara (place, 1)',
    ]);
    expect(
      mentioned('cs', [
        'Premiér Petr Fiala se v Bruselu setkal s kancléřem Olafem Scholzem.',
        'Podle Fialy jednání proběhlo v dobré atmosféře.',
        'Fiala uvedl, že Česko podpoří nový balíček sankcí.',
      ]),
    ).toEqual(expect.arrayContaining(['Petr Fiala (person, 3)', 'Bruselu (place, 1)', 'Česko (place, 1)']));
    expect(
      mentioned('hu', [
        'Orbán Viktor miniszterelnök Brüsszelben tárgyalt.',
        'A kormány szerint hasznos volt.',
      ]),
    ).toContain('Orbán Viktor (person, 1)');
  });

  it("a title's complement after a preposition, apart from the person it is written against", () => {
    expect(
      mentioned('it', [
        'Il presidente del Consiglio Giorgia Meloni ha incontrato a Roma il cancelliere Olaf Scholz.',
        "Secondo Meloni, l'Italia e la Germania devono collaborare sui migranti.",
      ]),
    ).toEqual(expect.arrayContaining(['Giorgia Meloni (person, 2)']));
    // Where the run cannot be told apart so, the title says nothing of it: Gobierno is no person.
    expect(
      mentioned('es', [
        'El presidente de Francia Emmanuel Macron visitó Madrid.',
        'El presidente del Gobierno, Pedro Sánchez, lo recibió.',
        'Según Macron, la visita fue un éxito.',
      ]),
    ).toEqual([
      'Emmanuel Macron (person, 2)',
      'Francia (place, 1)',
      'Madrid (place, 1)',
      'Pedro Sánchez (person, 1)',
    ]);
  });

  it('keeps a country that only follows a title, as a place', () => {
    expect(mentioned('ru', ['Президент России выступил в Москве.', 'Об этом сообщили в Кремле.'])).toEqual([
      'России (place, 1)',
      'Москве (place, 1)',
    ]);
  });

  it('leaves a name without clues as it was', () => {
    // Neither a title nor a known name: a capitalised word the article repeats, of no known kind.
    expect(typed('es', ['Ayer habló Zorbatek en el pleno.', 'Zorbatek no quiso dar detalles.'])).toEqual({
      Zorbatek: 'other',
    });
  });

  it('has no clues for English, whose lexicon knows its names, nor for a language ICU does not know', () => {
    expect(nameCluesFor('en')).toBeNull();
    expect(nameCluesFor('xx')).toBeNull();
    expect(nameCluesFor('es')!.place('estados unidos')).toBe(true);
    expect(nameCluesFor('es')!.place('unión europea')).toBe(false);
    expect(withoutAccents('Sánchez')).toBe('Sanchez');
  });
});

describe('latinSpellings', () => {
  it('spells a Cyrillic word the common way and with i for й and я after и', () => {
    expect(latinSpellings('мария')).toEqual(['mariya', 'maria']);
    expect(latinSpellings('андрей')).toEqual(['andrey', 'andrei']);
    expect(latinSpellings('путин')).toEqual(['putin']);
    expect(latinSpellings('maría')).toEqual([]);
  });
});
