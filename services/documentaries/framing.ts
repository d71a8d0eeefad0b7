// The framing words of a documentary's script in the documentary's language: the intro, the openings
// that name an outlet before its sentences, the transitions, the outro, the chapter titles and the
// period in words. A documentary in Spanish read by a Spanish voice should not open in English.
//
// Framing names outlets, the topic, the period and counts, and says nothing about the news: checkScript
// holds any script to that with the union of every language's framing words (framingSamples), so a
// model writing in any of these languages is held to the same rule. A language without its own framing
// here gets English framing around its articles' own sentences (framedLanguages lists the others).
//
// Each template is written so that the outlet's name never has to be declined or agree with a verb
// ("Ce reportage est signé Le Monde", not "de Le Monde"; Russian "сообщает", which has no gender).

export interface Framing {
  /** ISO 639-1. */
  language: string;
  /** "This is a news documentary on X, covering <period>." */
  intro: (topic: string, period: string) => string;
  /** "It brings together three stories from two sources." */
  gathered: (stories: number, sources: number) => string;
  noStories: string;
  /** How a story opens, by its position; each names the outlet whose sentences follow, and nothing else. */
  openings: readonly ((source: string) => string)[];
  /** Before sentences from a second outlet of the same story. */
  moreFrom: (source: string) => string;
  alsoCovered: (sources: readonly string[]) => string;
  /** Between stories: framing words only, never a fact. */
  transitions: readonly string[];
  lastTransition: string;
  end: (topic: string) => string;
  drewOn: (sources: readonly string[]) => string;
  titles: { intro: string; transition: string; outro: string; untitledStory: string };
  unnamedSource: string;
  /** The period as the intro says it: a range of two dates, or one day. */
  range: (start: Date, end: Date) => string;
  day: (date: Date) => string;
  /** The period as a chapter or documentary title gives it. */
  compact: (start: Date, end: Date) => string;
  /** The documentary's title. */
  title: (topic: string, compact: string) => string;
  /** Words a writer (a model) may use for framing besides the templates': checkScript allows them. */
  alsoAllowed: string;
}

const utcDate = (locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const sameMonth = (a: Date, b: Date) =>
  a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth();
const sameDay = (a: Date, b: Date) => sameMonth(a, b) && a.getUTCDate() === b.getUTCDate();
const listed = (locale: string) => {
  const format = new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' });
  return (items: readonly string[]) => format.format(items);
};
/** "17–24 novembre 2026" within a month (ICU's range), both dates in full across months. */
const compactRange = (date: (d: Date) => string, locale: string) => {
  const format = utcDate(locale);
  return (start: Date, end: Date) => {
    if (sameDay(start, end)) return date(end);
    return sameMonth(start, end) ? format.formatRange(start, end) : `${date(start)} – ${date(end)}`;
  };
};
/** A count with its noun in the form the language's plural rules ask for (Intl.PluralRules). */
const counting = (locale: string) => {
  const rules = new Intl.PluralRules(locale);
  return (n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }) =>
    `${n} ${forms[rules.select(n)] ?? forms.other}`;
};

// ---- English: the words writeScript has always used --------------------------------------------------

const englishMonths = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Small counts in words, as a narrator says them. */
export const englishSmallNumbers = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];
const englishCount = (n: number, singular: string, plural: string) =>
  `${englishSmallNumbers[n] ?? String(n)} ${n === 1 ? singular : plural}`;
/** "a", "a and b", "a, b and c" (no serial comma, as the BBC writes it). */
const englishList = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
const englishDate = (d: Date) => `${d.getUTCDate()} ${englishMonths[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
/** "17 to 24 November 2026", naming the month and year once when both ends share them. */
function englishCompact(start: Date, end: Date): string {
  if (sameDay(start, end)) return englishDate(end);
  if (sameMonth(start, end)) return `${start.getUTCDate()} to ${englishDate(end)}`;
  if (start.getUTCFullYear() === end.getUTCFullYear())
    return `${start.getUTCDate()} ${englishMonths[start.getUTCMonth()]} to ${englishDate(end)}`;
  return `${englishDate(start)} to ${englishDate(end)}`;
}

const english: Framing = {
  language: 'en',
  intro: (topic, period) => `This is a news documentary on ${topic}, covering ${period}.`,
  gathered: (stories, sources) =>
    `It brings together ${englishCount(stories, 'story', 'stories')} from ${englishCount(sources, 'source', 'sources')}.`,
  noStories: 'No stories on this topic were found in that period.',
  openings: [
    (source) => `Here is what ${source} reported.`,
    (source) => `${source} reported the following.`,
    (source) => `This report comes from ${source}.`,
  ],
  moreFrom: (source) => `There was more from ${source}.`,
  alsoCovered: (sources) => `The story was also covered by ${englishList(sources)}.`,
  transitions: [
    'Next, we turn to another story.',
    'There is other news as well.',
    'Now for a different story.',
    'We turn now to another report.',
    'Moving on, here is the next story.',
  ],
  lastTransition: 'Finally, one more story.',
  end: (topic) => `That brings this documentary on ${topic} to an end.`,
  drewOn: (sources) => `It drew on reporting by ${englishList(sources)}.`,
  titles: {
    intro: 'Introduction',
    transition: 'Transition',
    outro: 'Sources',
    untitledStory: 'Untitled story',
  },
  unnamedSource: 'an unnamed source',
  range: (start, end) => `the period from ${englishCompact(start, end)}`,
  day: englishDate,
  compact: englishCompact,
  title: (topic, compact) => `${topic}, ${compact}`,
  alsoAllowed:
    'According to reports, the outlet says; sources said; it added; reporting; coverage; meanwhile, elsewhere; another; next; latest. ' +
    'Welcome; listen; hear; thank you for listening; today; week; month; days; summary; review; programme; look back; story; stories; headlines; roundup; outlets; news.',
};

// ---- Romance and Germanic languages -----------------------------------------------------------------

function spanish(): Framing {
  const date = (d: Date) => utcDate('es').format(d);
  const count = counting('es');
  const list = listed('es');
  return {
    language: 'es',
    intro: (topic, period) => `Este es un documental informativo sobre ${topic}, que abarca ${period}.`,
    gathered: (stories, sources) =>
      `Reúne ${count(stories, { one: 'noticia', other: 'noticias' })} de ${count(sources, { one: 'fuente', other: 'fuentes' })}.`,
    noStories: 'No se encontraron noticias sobre este tema en ese periodo.',
    openings: [
      (source) => `Esto es lo que informó ${source}.`,
      (source) => `${source} informó lo siguiente.`,
      (source) => `Esta información procede de ${source}.`,
    ],
    moreFrom: (source) => `Hubo más información de ${source}.`,
    alsoCovered: (sources) => `La noticia también fue cubierta por ${list(sources)}.`,
    transitions: [
      'A continuación, pasamos a otra noticia.',
      'Hay más noticias.',
      'Ahora, una noticia diferente.',
      'Pasamos ahora a otra información.',
      'Seguimos con la siguiente noticia.',
    ],
    lastTransition: 'Por último, una noticia más.',
    end: (topic) => `Así termina este documental sobre ${topic}.`,
    drewOn: (sources) => `Se basó en información de ${list(sources)}.`,
    titles: {
      intro: 'Introducción',
      transition: 'Transición',
      outro: 'Fuentes',
      untitledStory: 'Noticia sin título',
    },
    unnamedSource: 'una fuente sin nombre',
    range: (start, end) => `el periodo del ${date(start)} al ${date(end)}`,
    day: (d) => `el ${date(d)}`,
    compact: compactRange(date, 'es'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Bienvenidos; escuchar; gracias por escucharnos; hoy; semana; mes; días; resumen; repaso; programa; noticias; titulares; medios; según; informó; añadió; mientras tanto; otra; siguiente; última.',
  };
}

function french(): Framing {
  // French says the first of the month "1er".
  const date = (d: Date) => utcDate('fr').format(d).replace(/^1 /u, '1er ');
  const count = counting('fr');
  const list = listed('fr');
  return {
    language: 'fr',
    intro: (topic, period) => `Voici un documentaire d'actualité sur ${topic}, couvrant ${period}.`,
    gathered: (stories, sources) =>
      `Il rassemble ${count(stories, { one: 'sujet', other: 'sujets' })} provenant de ${count(sources, { one: 'source', other: 'sources' })}.`,
    noStories: "Aucun sujet sur ce thème n'a été trouvé pour cette période.",
    openings: [
      (source) => `Voici ce qu'a rapporté ${source}.`,
      (source) => `${source} a rapporté ce qui suit.`,
      (source) => `Ce reportage est signé ${source}.`,
    ],
    moreFrom: (source) => `${source} a apporté d'autres informations.`,
    alsoCovered: (sources) => `L'information a aussi été reprise par ${list(sources)}.`,
    transitions: [
      'Passons maintenant à un autre sujet.',
      "Il y a d'autres nouvelles.",
      'Place à une autre information.',
      'Nous passons à présent à un autre reportage.',
      'On continue avec le sujet suivant.',
    ],
    lastTransition: 'Enfin, un dernier sujet.',
    end: (topic) => `Ainsi s'achève ce documentaire sur ${topic}.`,
    drewOn: (sources) => `Il s'appuie sur le travail des rédactions suivantes : ${list(sources)}.`,
    titles: {
      intro: 'Introduction',
      transition: 'Transition',
      outro: 'Sources',
      untitledStory: 'Sujet sans titre',
    },
    unnamedSource: 'une source non nommée',
    range: (start, end) => `la période du ${date(start)} au ${date(end)}`,
    day: (d) => `le ${date(d)}`,
    compact: compactRange(date, 'fr'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      "Bienvenue; écouter; merci de votre écoute; aujourd'hui; semaine; mois; jours; résumé; bilan; émission; actualité; titres; médias; selon; a ajouté; pendant ce temps; autre; suivant; dernier.",
  };
}

function german(): Framing {
  const date = (d: Date) => utcDate('de').format(d);
  const count = counting('de');
  const list = listed('de');
  return {
    language: 'de',
    intro: (topic, period) => `Dies ist eine Nachrichtendokumentation über ${topic} für ${period}.`,
    gathered: (stories, sources) =>
      `Sie vereint ${count(stories, { one: 'Meldung', other: 'Meldungen' })} aus ${count(sources, { one: 'Quelle', other: 'Quellen' })}.`,
    noStories: 'In diesem Zeitraum wurden keine Meldungen zu diesem Thema gefunden.',
    openings: [
      (source) => `Folgendes berichtete ${source}.`,
      (source) => `${source} berichtete Folgendes.`,
      (source) => `Dieser Bericht stammt von ${source}.`,
    ],
    moreFrom: (source) => `Weiteres berichtete ${source}.`,
    alsoCovered: (sources) =>
      `Über die Meldung ${sources.length > 1 ? 'berichteten' : 'berichtete'} auch ${list(sources)}.`,
    transitions: [
      'Als Nächstes kommen wir zu einer anderen Meldung.',
      'Es gibt noch weitere Nachrichten.',
      'Nun zu einem anderen Thema.',
      'Wir wenden uns jetzt einem weiteren Bericht zu.',
      'Weiter geht es mit der nächsten Meldung.',
    ],
    lastTransition: 'Zum Schluss noch eine Meldung.',
    end: (topic) => `Damit endet diese Dokumentation über ${topic}.`,
    drewOn: (sources) => `Sie stützt sich auf Berichte von ${list(sources)}.`,
    titles: {
      intro: 'Einleitung',
      transition: 'Überleitung',
      outro: 'Quellen',
      untitledStory: 'Meldung ohne Titel',
    },
    unnamedSource: 'eine ungenannte Quelle',
    range: (start, end) => `den Zeitraum vom ${date(start)} bis zum ${date(end)}`,
    day: (d) => `den ${date(d)}`,
    compact: compactRange(date, 'de'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Willkommen; hören; danke fürs Zuhören; heute; Woche; Monat; Tage; Zusammenfassung; Rückblick; Sendung; Nachrichten; Schlagzeilen; Medien; laut; berichtete; fügte hinzu; unterdessen; weitere; nächste; letzte.',
  };
}

function italian(): Framing {
  const date = (d: Date) => utcDate('it').format(d);
  // "dal 17", but "dall'8" and "dall'11": the article elides before a vowel sound.
  const elided = (d: Date, full: string, short: string) =>
    `${/^(8|11)\b/u.test(date(d)) ? short : full}${date(d)}`;
  const count = counting('it');
  const list = listed('it');
  return {
    language: 'it',
    intro: (topic, period) => `Questo è un documentario di attualità su ${topic}, che copre ${period}.`,
    gathered: (stories, sources) =>
      `Raccoglie ${count(stories, { one: 'notizia', other: 'notizie' })} da ${count(sources, { one: 'fonte', other: 'fonti' })}.`,
    noStories: 'In questo periodo non sono state trovate notizie su questo tema.',
    openings: [
      (source) => `Ecco cosa ha riportato ${source}.`,
      (source) => `${source} ha riportato quanto segue.`,
      (source) => `Questo servizio è firmato ${source}.`,
    ],
    moreFrom: (source) => `Altre informazioni sono arrivate da ${source}.`,
    alsoCovered: (sources) => `La notizia è stata ripresa anche da ${list(sources)}.`,
    transitions: [
      "Passiamo ora a un'altra notizia.",
      'Ci sono anche altre notizie.',
      'Ora, una notizia diversa.',
      'Passiamo a un altro servizio.',
      'Proseguiamo con la notizia successiva.',
    ],
    lastTransition: "Infine, un'ultima notizia.",
    end: (topic) => `Si conclude così questo documentario su ${topic}.`,
    drewOn: (sources) => `Si è basato sui servizi di ${list(sources)}.`,
    titles: {
      intro: 'Introduzione',
      transition: 'Transizione',
      outro: 'Fonti',
      untitledStory: 'Notizia senza titolo',
    },
    unnamedSource: 'una fonte non citata',
    range: (start, end) => `il periodo ${elided(start, 'dal ', "dall'")} ${elided(end, 'al ', "all'")}`,
    day: (d) => elided(d, 'il ', "l'"),
    compact: compactRange(date, 'it'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Benvenuti; ascoltare; grazie per l’ascolto; oggi; settimana; mese; giorni; riepilogo; rassegna; programma; notizie; titoli; testate; secondo; ha aggiunto; intanto; altra; prossima; ultima.',
  };
}

function portuguese(): Framing {
  const date = (d: Date) => utcDate('pt').format(d);
  const count = counting('pt');
  const list = listed('pt');
  return {
    language: 'pt',
    intro: (topic, period) => `Este é um documentário jornalístico sobre ${topic}, que abrange ${period}.`,
    gathered: (stories, sources) =>
      `Reúne ${count(stories, { one: 'notícia', other: 'notícias' })} de ${count(sources, { one: 'fonte', other: 'fontes' })}.`,
    noStories: 'Não foram encontradas notícias sobre este tema nesse período.',
    openings: [
      (source) => `Eis o que ${source} noticiou.`,
      (source) => `${source} noticiou o seguinte.`,
      (source) => `Esta reportagem é de ${source}.`,
    ],
    moreFrom: (source) => `Houve mais informações de ${source}.`,
    alsoCovered: (sources) => `A notícia também foi publicada por ${list(sources)}.`,
    transitions: [
      'A seguir, passamos a outra notícia.',
      'Há também outras notícias.',
      'Agora, uma notícia diferente.',
      'Passamos agora a outra reportagem.',
      'Seguimos com a próxima notícia.',
    ],
    lastTransition: 'Por fim, mais uma notícia.',
    end: (topic) => `Assim termina este documentário sobre ${topic}.`,
    drewOn: (sources) => `Baseou-se em reportagens de ${list(sources)}.`,
    titles: {
      intro: 'Introdução',
      transition: 'Transição',
      outro: 'Fontes',
      untitledStory: 'Notícia sem título',
    },
    unnamedSource: 'uma fonte não identificada',
    range: (start, end) => `o período de ${date(start)} a ${date(end)}`,
    day: (d) => `o dia ${date(d)}`,
    compact: compactRange(date, 'pt'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Bem-vindos; ouvir; obrigado por nos ouvir; hoje; semana; mês; dias; resumo; revista; programa; notícias; manchetes; veículos; segundo; acrescentou; enquanto isso; outra; próxima; última.',
  };
}

function dutch(): Framing {
  const date = (d: Date) => utcDate('nl').format(d);
  const count = counting('nl');
  const list = listed('nl');
  return {
    language: 'nl',
    intro: (topic, period) => `Dit is een nieuwsdocumentaire over ${topic}, ${period}.`,
    gathered: (stories, sources) =>
      `Ze brengt ${count(stories, { one: 'verhaal', other: 'verhalen' })} uit ${count(sources, { one: 'bron', other: 'bronnen' })} samen.`,
    noStories: 'In die periode zijn geen verhalen over dit onderwerp gevonden.',
    openings: [
      (source) => `Dit is wat ${source} meldde.`,
      (source) => `${source} meldde het volgende.`,
      (source) => `Dit bericht komt van ${source}.`,
    ],
    moreFrom: (source) => `Er was meer van ${source}.`,
    alsoCovered: (sources) => `Het verhaal werd ook gebracht door ${list(sources)}.`,
    transitions: [
      'Dan nu een ander verhaal.',
      'Er is ook ander nieuws.',
      'Nu een ander bericht.',
      'We gaan verder met een ander bericht.',
      'Hier is het volgende verhaal.',
    ],
    lastTransition: 'Tot slot nog één verhaal.',
    end: (topic) => `Daarmee komt deze documentaire over ${topic} ten einde.`,
    drewOn: (sources) => `Ze is gebaseerd op berichtgeving van ${list(sources)}.`,
    titles: {
      intro: 'Inleiding',
      transition: 'Overgang',
      outro: 'Bronnen',
      untitledStory: 'Verhaal zonder titel',
    },
    unnamedSource: 'een onbekende bron',
    range: (start, end) => `in de periode van ${date(start)} tot en met ${date(end)}`,
    day: (d) => `op ${date(d)}`,
    compact: compactRange(date, 'nl'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Welkom; luisteren; bedankt voor het luisteren; vandaag; week; maand; dagen; samenvatting; terugblik; programma; nieuws; koppen; media; volgens; voegde toe; intussen; ander; volgende; laatste.',
  };
}

// ---- Russian ----------------------------------------------------------------------------------------

function russian(): Framing {
  // "17 ноября 2026 года": ICU writes the year "2026 г.", which a narrator would read as a letter.
  const dayMonth = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'long', timeZone: 'UTC' });
  const date = (d: Date) => `${dayMonth.format(d)} ${d.getUTCFullYear()} года`;
  const count = counting('ru');
  const list = listed('ru');
  return {
    language: 'ru',
    intro: (topic, period) => `Это новостной документальный выпуск на тему «${topic}» за ${period}.`,
    gathered: (stories, sources) =>
      `Вы услышите ${count(stories, { one: 'сюжет', few: 'сюжета', other: 'сюжетов' })} из ${count(sources, { one: 'источника', other: 'источников' })}.`,
    noStories: 'За этот период сюжетов на эту тему не найдено.',
    openings: [
      (source) => `Вот что сообщает ${source}.`,
      (source) => `${source} сообщает следующее.`,
      (source) => `Источник этого материала — ${source}.`,
    ],
    moreFrom: (source) => `Ещё об этом сообщает ${source}.`,
    alsoCovered: (sources) => `Об этом также сообщали: ${list(sources)}.`,
    transitions: [
      'Далее — другая новость.',
      'Есть и другие новости.',
      'А теперь о другом.',
      'Переходим к следующему сообщению.',
      'Идём дальше: следующая новость.',
    ],
    lastTransition: 'И наконец, ещё одна новость.',
    end: (topic) => `На этом наш документальный выпуск на тему «${topic}» завершён.`,
    drewOn: (sources) => `В нём использованы материалы: ${list(sources)}.`,
    titles: {
      intro: 'Вступление',
      transition: 'Переход',
      outro: 'Источники',
      untitledStory: 'Сюжет без названия',
    },
    unnamedSource: 'неназванный источник',
    range: (start, end) => `период с ${date(start)} по ${date(end)}`,
    day: date,
    compact: compactRange(date, 'ru'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Добро пожаловать; слушать; спасибо, что слушали; сегодня; неделя; месяц; дни; обзор; итоги; программа; новости; заголовки; издания; по данным; добавил; тем временем; другой; следующий; последний.',
  };
}

// ---- Chinese and Japanese: no spaces, full-width punctuation ---------------------------------------

const ymd = (d: Date) => `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日`;
/** "2026年11月17日至24日", "2026年11月17日至12月3日": the year and month once when both ends share them. */
function cjkCompact(start: Date, end: Date, to: string): string {
  if (sameDay(start, end)) return ymd(end);
  if (sameMonth(start, end)) return `${ymd(start)}${to}${end.getUTCDate()}日`;
  if (start.getUTCFullYear() === end.getUTCFullYear())
    return `${ymd(start)}${to}${end.getUTCMonth() + 1}月${end.getUTCDate()}日`;
  return `${ymd(start)}${to}${ymd(end)}`;
}

function chinese(): Framing {
  const list = listed('zh');
  return {
    language: 'zh',
    intro: (topic, period) => `这是一部关于“${topic}”的新闻纪录片，时间范围为${period}。`,
    gathered: (stories, sources) => `本片汇集了来自${sources}个来源的${stories}则新闻。`,
    noStories: '在此期间没有找到与这一主题相关的新闻。',
    openings: [
      (source) => `以下是${source}的报道。`,
      (source) => `${source}报道了以下内容。`,
      (source) => `这篇报道来自${source}。`,
    ],
    moreFrom: (source) => `以下是${source}的更多报道。`,
    alsoCovered: (sources) => `${list(sources)}也报道了这则新闻。`,
    transitions: [
      '接下来，我们来看另一则新闻。',
      '还有其他新闻。',
      '现在来看一则不同的新闻。',
      '我们再来看另一篇报道。',
      '继续来看下一则新闻。',
    ],
    lastTransition: '最后，还有一则新闻。',
    end: (topic) => `关于“${topic}”的新闻纪录片到此结束。`,
    drewOn: (sources) => `本片的内容来自${list(sources)}的报道。`,
    titles: { intro: '引言', transition: '过渡', outro: '来源', untitledStory: '无标题新闻' },
    unnamedSource: '一个未具名的来源',
    range: (start, end) => `${ymd(start)}至${ymd(end)}`,
    day: ymd,
    compact: (start, end) => cjkCompact(start, end, '至'),
    title: (topic, compact) => `${topic}（${compact}）`,
    alsoAllowed:
      '欢迎收听；感谢收听；今天；本周；本月；天；回顾；节目；新闻；头条；媒体；据报道；补充说；与此同时；另一；下一；最新。',
  };
}

function japanese(): Framing {
  const list = listed('ja');
  return {
    language: 'ja',
    intro: (topic, period) =>
      `これは「${topic}」についてのニュースドキュメンタリーで、${period}を対象としています。`,
    // 「つ」counts one to nine only: 3つの情報源, 12の情報源.
    gathered: (stories, sources) =>
      `${sources}${sources < 10 ? 'つ' : ''}の情報源から${stories}件のニュースをお伝えします。`,
    noStories: 'この期間に、このテーマのニュースは見つかりませんでした。',
    openings: [
      (source) => `${source}の報道です。`,
      (source) => `${source}は次のように伝えました。`,
      (source) => `この報道は${source}によるものです。`,
    ],
    moreFrom: (source) => `${source}はさらに次のように伝えています。`,
    alsoCovered: (sources) => `このニュースは${list(sources)}も報じました。`,
    transitions: [
      '次に、別のニュースです。',
      'ほかにもニュースがあります。',
      '続いて、別の話題です。',
      '次の報道に移ります。',
      'では、次のニュースです。',
    ],
    lastTransition: '最後に、もう一つのニュースです。',
    end: (topic) => `「${topic}」についてのドキュメンタリーは以上です。`,
    drewOn: (sources) => `${list(sources)}の報道をもとにお伝えしました。`,
    titles: { intro: 'はじめに', transition: 'つなぎ', outro: '出典', untitledStory: '無題のニュース' },
    unnamedSource: '名前のない情報源',
    range: (start, end) => `${ymd(start)}から${ymd(end)}までの期間`,
    day: ymd,
    compact: (start, end) => cjkCompact(start, end, '～'),
    title: (topic, compact) => `${topic}（${compact}）`,
    alsoAllowed:
      'ようこそ；お聞きいただきありがとうございました；今日；今週；今月；日間；まとめ；振り返り；番組；ニュース；見出し；報道機関；によると；付け加えました；一方；別の；次の；最新。',
  };
}

// ---- Arabic, Hindi, Turkish, Polish, Ukrainian, Indonesian, Korean, Swedish -------------------------

function arabic(): Framing {
  // Digits as the counts give them (ICU's Arabic writes dates in Arabic-Indic digits).
  const locale = 'ar-u-nu-latn';
  const date = (d: Date) => utcDate(locale).format(d);
  // "و" (and) set apart from the outlet's name it joins, where Arabic writes it against the word: a name in
  // Latin letters reads better so (El Mundo و El País), and checkScript finds an Arabic one whole.
  const list = (items: readonly string[]) =>
    items.length <= 1 ? items.join('') : `${items.slice(0, -1).join('، ')} و ${items.at(-1)}`;
  const rules = new Intl.PluralRules('ar');
  /** A count as Arabic says it: one and two by the noun alone, 3-10 with the plural, 11 on with the singular. */
  const count = (
    n: number,
    forms: { one: string; two: string; few: string; many: string; other: string },
  ) => {
    const rule = rules.select(n);
    if (rule === 'one') return forms.one;
    if (rule === 'two') return forms.two;
    return `${n} ${rule === 'few' ? forms.few : rule === 'many' ? forms.many : forms.other}`;
  };
  return {
    language: 'ar',
    intro: (topic, period) => `هذا وثائقي إخباري عن «${topic}»، يغطي ${period}.`,
    gathered: (stories, sources) =>
      `يضم ${count(stories, { one: 'خبرًا واحدًا', two: 'خبرين', few: 'أخبار', many: 'خبرًا', other: 'خبر' })} من ${count(sources, { one: 'مصدر واحد', two: 'مصدرين', few: 'مصادر', many: 'مصدرًا', other: 'مصدر' })}.`,
    noStories: 'لم يُعثر على أخبار عن هذا الموضوع في تلك الفترة.',
    // Phrased so that no verb agrees with the outlet, whose gender the template cannot know.
    openings: [
      (source) => `ننقل لكم ما جاء في ${source}.`,
      (source) => `وهذا ما ورد في تقرير ${source}.`,
      (source) => `التقرير التالي من ${source}.`,
    ],
    moreFrom: (source) => `وفي تقرير آخر من ${source}.`,
    alsoCovered: (sources) => `وتناولت هذا الخبر أيضًا ${list(sources)}.`,
    transitions: [
      'ننتقل الآن إلى خبر آخر.',
      'وفي الأخبار أيضًا.',
      'والآن إلى خبر مختلف.',
      'ننتقل إلى تقرير آخر.',
      'ونتابع مع الخبر التالي.',
    ],
    lastTransition: 'وأخيرًا، خبر أخير.',
    end: (topic) => `بهذا نصل إلى نهاية هذا الوثائقي عن «${topic}».`,
    drewOn: (sources) => `استند هذا الوثائقي إلى تقارير ${list(sources)}.`,
    titles: { intro: 'مقدمة', transition: 'انتقال', outro: 'المصادر', untitledStory: 'خبر بلا عنوان' },
    unnamedSource: 'مصدر لم يُذكر اسمه',
    range: (start, end) => `الفترة من ${date(start)} إلى ${date(end)}`,
    day: (d) => `يوم ${date(d)}`,
    compact: compactRange(date, locale),
    title: (topic, compact) => `${topic}، ${compact}`,
    alsoAllowed:
      'مرحبًا بكم؛ استمعوا؛ شكرًا لاستماعكم؛ اليوم؛ الأسبوع؛ الشهر؛ أيام؛ ملخص؛ مراجعة؛ برنامج؛ أخبار؛ عناوين؛ وسائل الإعلام؛ وفقًا؛ أضاف؛ في غضون ذلك؛ آخر؛ التالي؛ الأخير؛ ' +
      'خبرًا واحدًا؛ خبرين؛ خبرًا؛ خبر؛ مصدر واحد؛ مصدرين؛ مصادر؛ مصدرًا؛ مصدر.',
  };
}

function hindi(): Framing {
  const date = (d: Date) => utcDate('hi').format(d);
  const count = counting('hi');
  const list = listed('hi');
  return {
    language: 'hi',
    intro: (topic, period) => `यह “${topic}” पर एक समाचार वृत्तचित्र है, जो ${period} को कवर करता है।`,
    gathered: (stories, sources) =>
      `इसमें ${count(sources, { one: 'स्रोत', other: 'स्रोतों' })} से ${count(stories, { one: 'खबर', other: 'खबरें' })} शामिल ${stories === 1 ? 'है' : 'हैं'}।`,
    noStories: 'इस अवधि में इस विषय पर कोई खबर नहीं मिली।',
    openings: [
      (source) => `यह रही ${source} की रिपोर्ट।`,
      (source) => `${source} की खबर इस प्रकार है।`,
      (source) => `यह रिपोर्ट ${source} से है।`,
    ],
    moreFrom: (source) => `${source} से और जानकारी।`,
    alsoCovered: (sources) => `इस खबर को ${list(sources)} ने भी कवर किया।`,
    transitions: [
      'अब एक और खबर की ओर चलते हैं।',
      'और भी खबरें हैं।',
      'अब एक अलग खबर।',
      'अब हम एक और रिपोर्ट पर आते हैं।',
      'आगे बढ़ते हैं, अगली खबर।',
    ],
    lastTransition: 'और अंत में, एक और खबर।',
    end: (topic) => `इसी के साथ “${topic}” पर यह वृत्तचित्र समाप्त होता है।`,
    drewOn: (sources) => `यह वृत्तचित्र ${list(sources)} की रिपोर्टिंग पर आधारित है।`,
    titles: { intro: 'परिचय', transition: 'अंतराल', outro: 'स्रोत', untitledStory: 'बिना शीर्षक की खबर' },
    unnamedSource: 'एक अनाम स्रोत',
    range: (start, end) => `${date(start)} से ${date(end)} तक की अवधि`,
    day: date,
    compact: compactRange(date, 'hi'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'स्वागत है; सुनिए; सुनने के लिए धन्यवाद; आज; सप्ताह; महीना; दिन; सारांश; समीक्षा; कार्यक्रम; खबरें; सुर्खियां; मीडिया; के अनुसार; ने कहा; इस बीच; एक और; अगली; ताज़ा; खबर; स्रोत; स्रोतों; है; हैं।',
  };
}

function turkish(): Framing {
  const date = (d: Date) => utcDate('tr').format(d);
  const list = listed('tr');
  return {
    language: 'tr',
    // Turkish takes no plural after a number, and its suffixes go on the nouns, never on an outlet's name.
    intro: (topic, period) => `Bu, ${topic} konulu bir haber belgeselidir ve ${period} kapsar.`,
    gathered: (stories, sources) => `Belgesel, ${sources} kaynaktan ${stories} haberi bir araya getiriyor.`,
    noStories: 'Bu dönemde bu konuda haber bulunamadı.',
    openings: [
      (source) => `${source} şunları bildirdi.`,
      (source) => `İşte ${source} kaynağından gelen haber.`,
      (source) => `Bu haberin kaynağı: ${source}.`,
    ],
    moreFrom: (source) => `${source} kaynağından daha fazla bilgi var.`,
    alsoCovered: (sources) => `Haber ayrıca şu kaynaklarda da yer aldı: ${list(sources)}.`,
    transitions: [
      'Şimdi başka bir habere geçiyoruz.',
      'Başka haberler de var.',
      'Şimdi farklı bir haber.',
      'Bir sonraki habere geçelim.',
      'Devam ediyoruz, sıradaki haber.',
    ],
    lastTransition: 'Son olarak, bir haber daha.',
    end: (topic) => `${topic} konulu belgeselimiz burada sona eriyor.`,
    drewOn: (sources) => `Belgeselde şu kaynakların haberlerinden yararlanıldı: ${list(sources)}.`,
    titles: { intro: 'Giriş', transition: 'Geçiş', outro: 'Kaynaklar', untitledStory: 'Başlıksız haber' },
    unnamedSource: 'adı belirtilmeyen bir kaynak',
    range: (start, end) => `${date(start)} ile ${date(end)} arasındaki dönemi`,
    day: (d) => `${date(d)} tarihini`,
    compact: compactRange(date, 'tr'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Hoş geldiniz; dinleyin; dinlediğiniz için teşekkürler; bugün; hafta; ay; gün; özet; değerlendirme; program; haberler; manşetler; medya; göre; ekledi; bu arada; başka; sıradaki; son.',
  };
}

function polish(): Framing {
  const date = (d: Date) => utcDate('pl').format(d);
  const count = counting('pl');
  const list = listed('pl');
  return {
    language: 'pl',
    intro: (topic, period) =>
      `To dokumentalny serwis informacyjny na temat „${topic}”, obejmujący ${period}.`,
    gathered: (stories, sources) =>
      `Zawiera ${count(stories, { one: 'wiadomość', other: 'wiadomości' })} z ${count(sources, { one: 'źródła', few: 'źródeł', many: 'źródeł', other: 'źródła' })}.`,
    noStories: 'W tym okresie nie znaleziono wiadomości na ten temat.',
    // No verb agrees with the outlet ("podał", "podała"), whose gender the template cannot know.
    openings: [
      (source) => `Oto relacja: ${source}.`,
      (source) => `Źródło tej informacji: ${source}.`,
      (source) => `Poniższe informacje pochodzą od: ${source}.`,
    ],
    moreFrom: (source) => `Więcej informacji: ${source}.`,
    alsoCovered: (sources) => `O sprawie informowały także: ${list(sources)}.`,
    transitions: [
      'Przechodzimy do kolejnej wiadomości.',
      'Są też inne wiadomości.',
      'A teraz inny temat.',
      'Przejdźmy do następnej relacji.',
      'Idziemy dalej: kolejna wiadomość.',
    ],
    lastTransition: 'Na koniec jeszcze jedna wiadomość.',
    end: (topic) => `Na tym kończymy serwis dokumentalny na temat „${topic}”.`,
    drewOn: (sources) => `Wykorzystano materiały: ${list(sources)}.`,
    titles: {
      intro: 'Wstęp',
      transition: 'Przejście',
      outro: 'Źródła',
      untitledStory: 'Wiadomość bez tytułu',
    },
    unnamedSource: 'nieznane źródło',
    range: (start, end) => `okres od ${date(start)} do ${date(end)}`,
    day: (d) => `dzień ${date(d)}`,
    compact: compactRange(date, 'pl'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Witamy; słuchać; dziękujemy za wysłuchanie; dzisiaj; tydzień; miesiąc; dni; przegląd; podsumowanie; program; wiadomości; nagłówki; media; według; dodał; tymczasem; inny; następny; ostatni; wiadomość; źródła; źródeł.',
  };
}

function ukrainian(): Framing {
  // "17 листопада 2026 року": ICU writes the year "2026 р.", which a narrator would read as a letter.
  const dayMonth = new Intl.DateTimeFormat('uk', { day: 'numeric', month: 'long', timeZone: 'UTC' });
  const date = (d: Date) => `${dayMonth.format(d)} ${d.getUTCFullYear()} року`;
  const count = counting('uk');
  const list = listed('uk');
  return {
    language: 'uk',
    intro: (topic, period) => `Це новинний документальний випуск на тему «${topic}» за ${period}.`,
    gathered: (stories, sources) =>
      `Ви почуєте ${count(stories, { one: 'сюжет', few: 'сюжети', many: 'сюжетів', other: 'сюжету' })} з ${count(sources, { one: 'джерела', other: 'джерел' })}.`,
    noStories: 'За цей період сюжетів на цю тему не знайдено.',
    openings: [
      (source) => `Ось що повідомляє ${source}.`,
      (source) => `${source} повідомляє таке.`,
      (source) => `Джерело цього матеріалу — ${source}.`,
    ],
    moreFrom: (source) => `Ще про це повідомляє ${source}.`,
    alsoCovered: (sources) => `Про це також повідомляли: ${list(sources)}.`,
    transitions: [
      'Далі — інша новина.',
      'Є й інші новини.',
      'А тепер про інше.',
      'Переходимо до наступного повідомлення.',
      'Рухаємося далі: наступна новина.',
    ],
    lastTransition: 'І насамкінець, ще одна новина.',
    end: (topic) => `На цьому наш документальний випуск на тему «${topic}» завершено.`,
    drewOn: (sources) => `У ньому використано матеріали: ${list(sources)}.`,
    titles: { intro: 'Вступ', transition: 'Перехід', outro: 'Джерела', untitledStory: 'Сюжет без назви' },
    unnamedSource: 'неназване джерело',
    range: (start, end) => `період з ${date(start)} по ${date(end)}`,
    day: date,
    // Within a month the first day alone (ICU's range would end in "р." too).
    compact: (start, end) =>
      sameDay(start, end)
        ? date(end)
        : sameMonth(start, end)
          ? `${start.getUTCDate()}–${date(end)}`
          : `${date(start)} – ${date(end)}`,
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Ласкаво просимо; слухати; дякуємо, що слухали; сьогодні; тиждень; місяць; дні; огляд; підсумки; програма; новини; заголовки; видання; за даними; додав; тим часом; інший; наступний; останній; сюжет; сюжети; сюжетів; сюжету; джерела; джерел.',
  };
}

function indonesian(): Framing {
  const date = (d: Date) => utcDate('id').format(d);
  const list = listed('id');
  return {
    language: 'id',
    intro: (topic, period) => `Ini adalah dokumenter berita tentang ${topic}, yang mencakup ${period}.`,
    gathered: (stories, sources) => `Dokumenter ini menghimpun ${stories} berita dari ${sources} sumber.`,
    noStories: 'Tidak ada berita tentang topik ini pada periode tersebut.',
    openings: [
      (source) => `Berikut laporan dari ${source}.`,
      (source) => `${source} melaporkan hal berikut.`,
      (source) => `Laporan ini berasal dari ${source}.`,
    ],
    moreFrom: (source) => `Ada informasi lain dari ${source}.`,
    alsoCovered: (sources) => `Berita ini juga diliput oleh ${list(sources)}.`,
    transitions: [
      'Selanjutnya, kita beralih ke berita lain.',
      'Ada berita lainnya.',
      'Sekarang, berita yang berbeda.',
      'Kita beralih ke laporan berikutnya.',
      'Berikutnya, berita selanjutnya.',
    ],
    lastTransition: 'Terakhir, satu berita lagi.',
    end: (topic) => `Demikian dokumenter tentang ${topic}.`,
    drewOn: (sources) => `Dokumenter ini disusun dari laporan ${list(sources)}.`,
    titles: {
      intro: 'Pendahuluan',
      transition: 'Peralihan',
      outro: 'Sumber',
      untitledStory: 'Berita tanpa judul',
    },
    unnamedSource: 'sumber yang tidak disebutkan namanya',
    range: (start, end) => `periode ${date(start)} hingga ${date(end)}`,
    day: (d) => `tanggal ${date(d)}`,
    compact: compactRange(date, 'id'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Selamat datang; dengarkan; terima kasih telah mendengarkan; hari ini; minggu; bulan; hari; ringkasan; ulasan; program; berita; tajuk; media; menurut; menambahkan; sementara itu; lain; berikutnya; terbaru.',
  };
}

function korean(): Framing {
  const date = (d: Date) => utcDate('ko').format(d);
  const list = listed('ko');
  return {
    language: 'ko',
    // The period ends in 일 or 기간, so its object particle is 을; no particle follows a name the template
    // cannot know the last sound of (의 and 에서 follow any).
    intro: (topic, period) => `${topic}에 관한 뉴스 다큐멘터리입니다. ${period}을 다룹니다.`,
    gathered: (stories, sources) => `${sources}개 출처의 뉴스 ${stories}건을 모았습니다.`,
    noStories: '이 기간에 이 주제에 관한 뉴스를 찾지 못했습니다.',
    openings: [
      (source) => `${source}의 보도입니다.`,
      (source) => `다음은 ${source}의 보도 내용입니다.`,
      (source) => `이 보도는 ${source}에서 나왔습니다.`,
    ],
    moreFrom: (source) => `${source}의 추가 보도입니다.`,
    alsoCovered: (sources) => `이 소식은 ${list(sources)}에서도 보도했습니다.`,
    transitions: [
      '다음 소식으로 넘어가겠습니다.',
      '다른 소식도 있습니다.',
      '이번에는 다른 소식입니다.',
      '다른 보도로 넘어갑니다.',
      '이어서 다음 뉴스입니다.',
    ],
    lastTransition: '마지막으로 한 가지 소식이 더 있습니다.',
    end: (topic) => `${topic}에 관한 다큐멘터리를 마칩니다.`,
    drewOn: (sources) => `${list(sources)}의 보도를 바탕으로 했습니다.`,
    titles: { intro: '소개', transition: '전환', outro: '출처', untitledStory: '제목 없는 뉴스' },
    unnamedSource: '이름이 밝혀지지 않은 출처',
    range: (start, end) => `${date(start)}부터 ${date(end)}까지의 기간`,
    day: date,
    compact: compactRange(date, 'ko'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      '환영합니다; 들어 주셔서 감사합니다; 오늘; 이번 주; 이번 달; 일; 요약; 정리; 프로그램; 뉴스; 헤드라인; 언론; 에 따르면; 덧붙였습니다; 한편; 다른; 다음; 최신.',
  };
}

function swedish(): Framing {
  const date = (d: Date) => utcDate('sv').format(d);
  const count = counting('sv');
  const list = listed('sv');
  return {
    language: 'sv',
    intro: (topic, period) => `Det här är en nyhetsdokumentär om ${topic} som täcker ${period}.`,
    gathered: (stories, sources) =>
      `Den samlar ${count(stories, { one: 'nyhet', other: 'nyheter' })} från ${count(sources, { one: 'källa', other: 'källor' })}.`,
    noStories: 'Inga nyheter om ämnet hittades under den perioden.',
    openings: [
      (source) => `Så här rapporterade ${source}.`,
      (source) => `${source} rapporterade följande.`,
      (source) => `Den här rapporten kommer från ${source}.`,
    ],
    moreFrom: (source) => `Mer kom från ${source}.`,
    alsoCovered: (sources) => `Nyheten rapporterades även av ${list(sources)}.`,
    transitions: [
      'Nu går vi vidare till en annan nyhet.',
      'Det finns fler nyheter.',
      'Nu till en annan nyhet.',
      'Vi går nu över till en annan rapport.',
      'Vi fortsätter med nästa nyhet.',
    ],
    lastTransition: 'Till sist, en nyhet till.',
    end: (topic) => `Därmed är den här dokumentären om ${topic} slut.`,
    drewOn: (sources) => `Den bygger på rapportering från ${list(sources)}.`,
    titles: {
      intro: 'Inledning',
      transition: 'Övergång',
      outro: 'Källor',
      untitledStory: 'Nyhet utan rubrik',
    },
    unnamedSource: 'en icke namngiven källa',
    range: (start, end) => `perioden ${date(start)} till ${date(end)}`,
    day: (d) => `den ${date(d)}`,
    compact: compactRange(date, 'sv'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'Välkommen; lyssna; tack för att du lyssnade; i dag; vecka; månad; dagar; sammanfattning; genomgång; program; nyheter; rubriker; medier; enligt; tillade; samtidigt; annan; nästa; senaste; nyhet; källa; källor.',
  };
}

function persian(): Framing {
  // Iran's calendar (ICU's default for Persian), in the digits the counts use.
  const locale = 'fa-u-nu-latn';
  const date = (d: Date) => utcDate(locale).format(d);
  const list = (items: readonly string[]) =>
    items.length <= 1 ? items.join('') : `${items.slice(0, -1).join('، ')} و ${items.at(-1)}`;
  return {
    language: 'fa',
    intro: (topic, period) => `این یک مستند خبری دربارهٔ «${topic}» است که ${period} را در بر می‌گیرد.`,
    // Persian takes no plural after a number.
    gathered: (stories, sources) => `این مستند ${stories} خبر از ${sources} منبع را گرد هم آورده است.`,
    noStories: 'در این بازه هیچ خبری دربارهٔ این موضوع پیدا نشد.',
    openings: [
      (source) => `این گزارش ${source} است.`,
      (source) => `${source} چنین گزارش داد.`,
      (source) => `این گزارش از ${source} است.`,
    ],
    moreFrom: (source) => `${source} نیز گزارش بیشتری داشت.`,
    alsoCovered: (sources) => `این خبر را ${list(sources)} نیز پوشش دادند.`,
    transitions: [
      'اکنون به خبر دیگری می‌پردازیم.',
      'خبرهای دیگری هم هست.',
      'و اما خبری متفاوت.',
      'به گزارش دیگری می‌رویم.',
      'خبر بعدی را دنبال می‌کنیم.',
    ],
    lastTransition: 'و در پایان، یک خبر دیگر.',
    end: (topic) => `این مستند دربارهٔ «${topic}» به پایان رسید.`,
    drewOn: (sources) => `این مستند بر پایهٔ گزارش‌های ${list(sources)} تهیه شده است.`,
    titles: { intro: 'مقدمه', transition: 'میان‌پرده', outro: 'منابع', untitledStory: 'خبر بی‌عنوان' },
    unnamedSource: 'منبعی که نامش ذکر نشده',
    range: (start, end) => `بازهٔ ${date(start)} تا ${date(end)}`,
    day: (d) => `روز ${date(d)}`,
    compact: compactRange(date, locale),
    title: (topic, compact) => `${topic}، ${compact}`,
    alsoAllowed:
      'خوش آمدید؛ گوش کنید؛ از همراهی شما سپاسگزاریم؛ امروز؛ هفته؛ ماه؛ روزها؛ خلاصه؛ مرور؛ برنامه؛ خبرها؛ سرخط‌ها؛ رسانه‌ها؛ به گزارش؛ افزود؛ در همین حال؛ دیگر؛ بعدی؛ تازه‌ترین؛ خبر؛ منبع.',
  };
}

function hebrew(): Framing {
  const date = (d: Date) => utcDate('he').format(d);
  // "ו" (and) is written against the next word; "וגם" (and also) stands apart from an outlet's name.
  const list = (items: readonly string[]) =>
    items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} וגם ${items.at(-1)}`;
  /** A count with its noun: the number after the noun for one ("ידיעה אחת"), a word for two. */
  const count = (n: number, one: string, two: string, many: string) =>
    n === 1 ? one : n === 2 ? two : `${n} ${many}`;
  return {
    language: 'he',
    intro: (topic, period) => `זוהי תוכנית תיעודית חדשותית בנושא ${topic}, המכסה את ${period}.`,
    gathered: (stories, sources) =>
      `התוכנית מביאה ${count(stories, 'ידיעה אחת', 'שתי ידיעות', 'ידיעות')} מתוך ${count(sources, 'מקור אחד', 'שני מקורות', 'מקורות')}.`,
    noStories: 'לא נמצאו ידיעות בנושא זה בתקופה הזו.',
    // Phrased so that no verb agrees with the outlet, whose gender the template cannot know.
    openings: [
      (source) => `זה הדיווח של ${source}.`,
      (source) => `הדיווח הבא מגיע מ־${source}.`,
      (source) => `מקור הדיווח: ${source}.`,
    ],
    moreFrom: (source) => `ועוד דיווח של ${source}.`,
    alsoCovered: (sources) => `על הידיעה דיווחו גם ${list(sources)}.`,
    transitions: [
      'ועכשיו לידיעה אחרת.',
      'יש גם חדשות נוספות.',
      'ועתה, ידיעה שונה.',
      'נעבור לדיווח אחר.',
      'נמשיך עם הידיעה הבאה.',
    ],
    lastTransition: 'ולסיום, ידיעה אחת נוספת.',
    end: (topic) => `כאן מסתיימת התוכנית התיעודית בנושא ${topic}.`,
    drewOn: (sources) => `התוכנית התבססה על דיווחים של ${list(sources)}.`,
    titles: { intro: 'פתיחה', transition: 'מעבר', outro: 'מקורות', untitledStory: 'ידיעה ללא כותרת' },
    unnamedSource: 'מקור שלא נמסר שמו',
    range: (start, end) => `התקופה שבין ${date(start)} ל־${date(end)}`,
    day: (d) => `התאריך ${date(d)}`,
    compact: compactRange(date, 'he'),
    title: (topic, compact) => `${topic}, ${compact}`,
    alsoAllowed:
      'ברוכים הבאים; האזינו; תודה שהאזנתם; היום; שבוע; חודש; ימים; סיכום; סקירה; תוכנית; חדשות; כותרות; כלי תקשורת; לדברי; הוסיף; בינתיים; אחר; הבא; האחרון; ידיעה; ידיעות; שתי; אחת; מקור; מקורות; שני; אחד.',
  };
}

const framings: ReadonlyMap<string, Framing> = new Map(
  [
    english,
    spanish(),
    french(),
    german(),
    italian(),
    portuguese(),
    dutch(),
    russian(),
    chinese(),
    japanese(),
    arabic(),
    hindi(),
    turkish(),
    polish(),
    ukrainian(),
    indonesian(),
    korean(),
    swedish(),
    persian(),
    hebrew(),
  ].map((f) => [f.language, f]),
);

/** The languages with framing words of their own; any other gets English framing. */
export const framedLanguages: readonly string[] = [...framings.keys()];

/** The framing for a language (ISO 639-1, or a locale whose language counts: pt-BR is pt); English else. */
export function framingFor(language: string | undefined): Framing {
  const code = (language ?? 'en').split(/[-_]/u)[0]!.toLowerCase();
  return framings.get(code) ?? english;
}

/**
 * Every language's framing sentences with the outlets' names left empty, and the words a writer may use
 * in their place: what checkScript accepts as framing whatever the documentary's language.
 */
export function framingSamples(): string[] {
  return [...framings.values()].flatMap((f) => [
    ...f.openings.map((opening) => opening('')),
    f.moreFrom(''),
    // Three names, so that the list's words (", and", "und", "和") are there too.
    f.alsoCovered(['', '', '']),
    ...f.transitions,
    f.lastTransition,
    f.intro('', ''),
    f.gathered(2, 2),
    f.noStories,
    f.end(''),
    f.drewOn(['', '', '']),
    f.unnamedSource,
    f.alsoAllowed,
  ]);
}
