// Clues to what kind of name a capitalised run is, in languages other than English, whose names the
// English lexicon (entity-lexicon.ts) mostly does not know: "Alemania", "Германии", "Sánchez".
// - The word before the name: a job title or form of address makes it a person's ("el presidente
//   Pedro Sánchez", "министр Антон Силуанов"), a word for a company or institution an
//   organisation's ("la empresa Repsol", "компания Газпром"). Other languages write these in
//   lowercase, before the name, where the English method never looks.
// - The words inside it: "Banco Santander", "Partido Popular", "Ministerio de Hacienda".
// - Country and continent names in the language itself, from ICU (Intl.DisplayNames, no list of ours to keep),
//   found in any case of an inflected language by their stems ("в Германии").
// - A Latin name with its accents taken off, for the English lexicon's first and last names and
//   places (María, José, Sánchez, Berlín).
// - Large cities in the languages whose names of them the English lexicon cannot read (Москва, Warszawa,
//   Moskau, Bruselas, Francfort, Den Haag), found in any case like the countries.
// - In the languages that decline names (Russian, Ukrainian, Polish, Czech, German's genitive, Turkish's
//   suffixes after an apostrophe), a name's word
//   without its case ending (nameStem): "Путина", "Путиным" and "Путин" are one person, "Macrona" and
//   "Macronem" one Macron. Snowball's stemmers are made for common words and take names apart unevenly
//   ("Эрдоган" to "эрдога", "Эрдоганом" to "эрдоган"); a name's endings are few, and stripping the longest
//   of them treats every form of one name alike.
import { stemmerFor, type Stem } from './word-stems.ts';

export interface NameClues {
  /** A person follows this word (lowercase, or its stem). */
  personBefore: (word: string) => boolean;
  /** An organisation follows this word. */
  organizationBefore: (word: string) => boolean;
  /** An organisation's name is built with this word ("banco", "partido"). */
  organizationWord: (word: string) => boolean;
  /** The name (lowercase, words joined by a space) is a country's, a continent's or a large city's. */
  place: (name: string) => boolean;
  /** A name's word (lowercase) without the case ending it has in the sentence; the word where names do not decline. */
  nameStem: (word: string) => string;
  /** Whether a person's name starts with the first name (not in Hungarian: Orbán Viktor). */
  firstNameFirst: boolean;
  /** Whether nameStem takes case endings off (the language declines names). */
  declinesNames: boolean;
  /** Whether the language writes compounds as one word ("Zentralbank"), so a word may end with another. */
  compoundsWords: boolean;
}

/** Job titles and forms of address, lowercase, as written before a name. */
const personWords: Record<string, string> = {
  es: 'presidente presidenta ministro ministra vicepresidente vicepresidenta director directora delegado delegada portavoz alcalde alcaldesa rey reina papa juez jueza entrenador seleccionador señor señora don doña sr sra líder secretario secretaria gobernador gobernadora senador senadora diputado diputada canciller fiscal jefe jefa economista analista',
  fr: 'président présidente ministre directeur directrice porte-parole maire roi reine pape juge entraîneur sélectionneur monsieur madame m mme dirigeant dirigeante patron patronne secrétaire gouverneur sénateur sénatrice député députée chancelier chancelière procureur chef économiste analyste',
  it: 'presidente ministro ministra direttore direttrice portavoce sindaco sindaca re regina papa giudice allenatore ct signor signore signora leader segretario segretaria governatore senatore senatrice deputato deputata cancelliere procuratore capo amministratore economista analista',
  pt: 'presidente presidenta ministro ministra diretor diretora porta-voz prefeito prefeita rei rainha papa juiz juíza técnico treinador senhor senhora sr sra líder secretário secretária governador governadora senador senadora deputado deputada chanceler procurador chefe economista analista',
  nl: 'president premier minister directeur topman topvrouw woordvoerder woordvoerster burgemeester koning koningin paus rechter trainer bondscoach heer mevrouw leider secretaris gouverneur senator kamerlid kanselier officier econoom analist',
  ru: 'президент премьер премьер-министр министр глава директор гендиректор председатель мэр губернатор король королева папа судья тренер господин госпожа лидер секретарь пресс-секретарь представитель сенатор депутат канцлер прокурор вице-премьер экономист аналитик',
  uk: 'президент прем’єр прем’єр-міністр міністр голова директор мер губернатор король папа суддя тренер пан пані лідер секретар речник сенатор депутат канцлер прокурор',
  pl: 'prezydent premier minister prezes dyrektor rzecznik burmistrz prezydent król królowa papież sędzia trener pan pani lider sekretarz gubernator senator poseł posłanka kanclerz prokurator',
  cs: 'premiér premiérka prezident prezidentka ministr ministryně předseda předsedkyně místopředseda místopředsedkyně ředitel ředitelka mluvčí starosta starostka primátor král královna papež soudce soudkyně trenér pan paní šéf šéfka guvernér senátor senátorka poslanec poslankyně kancléř kancléřka ekonom analytik',
  tr: 'cumhurbaşkanı başbakan bakan bakanı başkan başkanı devlet dışişleri içişleri maliye hazine savunma adalet sağlık ekonomi enerji ticaret müdür müdürü sözcü sözcüsü vali valisi kral kraliçe papa hakim yargıç antrenör teknik direktör direktörü lider lideri sayın bay bayan ekonomist analist yardımcısı',
  ca: 'president presidenta ministre ministra director directora portaveu alcalde alcaldessa rei reina papa jutge entrenador senyor senyora líder secretari conseller consellera',
  sv: 'president premiärminister statsminister minister direktör vd talesperson borgmästare kung drottning påve domare tränare förbundskapten ledare sekreterare',
  da: 'præsident premierminister statsminister minister direktør talsperson borgmester konge dronning pave dommer træner landstræner leder sekretær',
  no: 'president statsminister minister direktør talsperson ordfører konge dronning pave dommer trener landslagssjef leder sekretær',
  de: 'präsident präsidentin bundespräsident bundespräsidentin kanzler kanzlerin bundeskanzler bundeskanzlerin ministerpräsident ministerpräsidentin premierminister premierministerin regierungschef regierungschefin minister ministerin außenminister außenministerin finanzminister finanzministerin wirtschaftsminister wirtschaftsministerin innenminister innenministerin verteidigungsminister verteidigungsministerin gesundheitsminister gesundheitsministerin justizminister justizministerin staatssekretär staatssekretärin bürgermeister bürgermeisterin oberbürgermeister oberbürgermeisterin könig königin papst richter richterin trainer bundestrainer herr frau chef chefin konzernchef konzernchefin vorstandschef vorstandschefin parteichef parteichefin sprecher sprecherin regierungssprecher regierungssprecherin abgeordnete abgeordneter senator senatorin gouverneur gouverneurin staatschef staatschefin ökonom ökonomin analyst analystin',
  ro: 'președintele președinte premierul premier ministrul ministru directorul director purtătorul primarul regele papa judecătorul antrenorul domnul doamna liderul secretarul guvernatorul senatorul deputatul',
};

/** Words for a company or institution written before its name. */
const organizationWordsBefore: Record<string, string> = {
  es: 'empresa compañía grupo banco club equipo aerolínea fabricante firma operadora constructora cadena partido sindicato diario periódico',
  fr: 'entreprise société groupe banque club équipe compagnie constructeur fabricant firme opérateur chaîne parti syndicat quotidien journal',
  it: 'azienda società gruppo banca club squadra compagnia costruttore produttore operatore catena partito sindacato quotidiano giornale',
  pt: 'empresa companhia grupo banco clube equipe equipa fabricante operadora montadora rede partido sindicato jornal',
  nl: 'bedrijf concern groep bank club ploeg maatschappij fabrikant operator keten partij vakbond krant',
  ru: 'компания компании компанией корпорация концерн группа банк банка клуб команда холдинг производитель оператор авиакомпания партия профсоюз газета агентство',
  uk: 'компанія корпорація концерн група банк клуб команда холдинг виробник оператор авіакомпанія партія профспілка газета агентство',
  pl: 'firma spółka koncern grupa bank klub drużyna producent operator partia związek gazeta',
  cs: 'firma společnost skupina banka klub tým výrobce operátor strana odbory deník',
  tr: 'şirket şirketi grup grubu banka kulüp kulübü takım parti sendika gazete',
  de: 'unternehmen konzern firma gruppe bank verein klub mannschaft hersteller autobauer betreiber kette partei gewerkschaft zeitung sender',
};

/** Words organisation names are built with. */
const organizationNameWords: Record<string, string> = {
  es: 'banco grupo partido ministerio universidad compañía fundación asociación federación sindicato agencia instituto tribunal consejo comisión club corporación república sa sl',
  fr: 'banque groupe parti ministère université compagnie société fondation association fédération syndicat agence institut tribunal conseil commission club république sa sas',
  it: 'banca gruppo partito ministero università compagnia fondazione associazione federazione sindacato agenzia istituto tribunale consiglio commissione repubblica spa srl',
  pt: 'banco grupo partido ministério universidade companhia fundação associação federação sindicato agência instituto tribunal conselho comissão república sa ltda',
  nl: 'bank groep partij ministerie universiteit stichting vereniging federatie vakbond agentschap instituut rechtbank raad commissie bv nv',
  ru: 'банк группа партия министерство университет компания фонд ассоциация федерация союз агентство институт суд совет комиссия пао оао ооо ао',
  uk: 'банк група партія міністерство університет компанія фонд асоціація федерація спілка агентство інститут суд рада комісія',
  pl: 'bank grupa partia ministerstwo uniwersytet fundacja stowarzyszenie federacja związek agencja instytut sąd rada komisja sa',
  cs: 'banka skupina strana ministerstvo univerzita nadace sdružení federace svaz agentura institut soud rada komise',
  tr: 'bankası holding holdingi partisi bakanlığı üniversitesi vakfı derneği federasyonu sendikası ajansı enstitüsü mahkemesi kurulu komisyonu',
  de: 'bank partei ministerium universität stiftung verband verein gewerkschaft agentur institut gericht bundesgerichtshof rat kommission bundesamt amt konzern gruppe ag gmbh se kgaa',
};

/**
 * Large cities, in the language's own names of them, lowercase; the words of a name of several are
 * joined by "_" here (by a space in a name as entities.ts joins its words, hyphens too). The forms
 * where a name's stem itself changes are listed beside it (Київ, Києва).
 */
const cityNames: Record<string, string> = {
  ru: 'москва санкт_петербург петербург киев минск вашингтон нью_йорк лондон париж берлин пекин токио рим мадрид варшава стамбул анкара тегеран брюссель женева вена прага будапешт харьков одесса донецк луганск крым херсон запорожье сочи новосибирск екатеринбург казань владивосток белгород курск ташкент астана баку ереван тбилиси кишинев кишинёв рига вильнюс таллин хельсинки дамаск иерусалим газа багдад дели сеул пхеньян',
  uk: 'київ києва харків харкова одеса львів львова дніпро запоріжжя херсон донецьк луганськ крим маріуполь бахмут москва вашингтон лондон париж берлін варшава брюссель відень прага мінськ пекін рим женева',
  pl: 'warszawa kraków krakowa gdańsk gdańska wrocław wrocławia poznań poznania łódź łodzi moskwa kijów kijowa berlin paryż paryża londyn waszyngton nowy_jork pekin rzym bruksela wiedeń wiednia praga mińsk wilno lwów lwowa charków charkowa',
  cs: 'praha praze prahy brno brně ostrava ostravě moskva moskvě kyjev kyjevě varšava varšavě berlín berlíně vídeň vídni brusel bruselu paříž paříži londýn londýně washington bratislava bratislavě',
  tr: 'istanbul ankara izmir moskova kiev kyiv vaşington londra paris berlin brüksel pekin tahran şam bağdat kudüs gazze soçi',
  de: 'moskau peking rom warschau prag wien brüssel genf kiew kyjiw mailand neapel venedig lissabon athen kopenhagen münchen köln nürnberg düsseldorf zürich',
  es: 'bruselas londres roma pekín moscú nueva_york ginebra estocolmo atenas lisboa varsovia viena praga kiev jerusalén el_cairo ciudad_de_méxico nueva_delhi fráncfort múnich milán florencia venecia nápoles copenhague estambul teherán bagdad damasco beirut tokio seúl shanghái singapur la_habana bogotá santiago buenos_aires montevideo río_de_janeiro são_paulo sevilla valencia bilbao zaragoza málaga',
  fr: 'bruxelles londres rome pékin moscou new_york genève stockholm athènes lisbonne varsovie vienne prague kiev jérusalem le_caire mexico new_delhi francfort munich milan florence venise naples copenhague istanbul téhéran bagdad damas beyrouth tokyo séoul shanghai singapour la_havane montréal québec lyon marseille toulouse bordeaux lille strasbourg nantes rennes la_haye anvers bâle zurich berne',
  it: 'bruxelles londra roma pechino mosca new_york ginevra stoccolma atene lisbona varsavia vienna praga kiev gerusalemme il_cairo città_del_messico nuova_delhi francoforte monaco milano firenze venezia napoli torino bologna genova palermo copenaghen istanbul teheran baghdad damasco beirut tokyo seul parigi berlino barcellona siviglia',
  pt: 'bruxelas londres roma pequim moscou moscovo nova_iorque genebra estocolmo atenas lisboa porto varsóvia viena praga kiev jerusalém cairo cidade_do_méxico nova_déli frankfurt munique milão florença veneza nápoles copenhague istambul teerã beirute tóquio seul xangai paris berlim madri barcelona brasília são_paulo rio_de_janeiro salvador belo_horizonte',
  nl: 'brussel londen rome peking moskou new_york genève stockholm athene lissabon warschau wenen praag kiev jeruzalem caïro new_delhi frankfurt münchen milaan florence venetië napels kopenhagen istanboel teheran bagdad damascus beiroet tokio seoel parijs berlijn den_haag amsterdam rotterdam utrecht eindhoven antwerpen gent luik',
};

/** Turkish writes a proper name's case suffix after an apostrophe: Erdoğan'ın, Ankara'ya, Türkiye'nin. */
export const turkishSuffix = /['\u2019]\p{L}+$/u;

/**
 * A regular expression for the endings, also as written without diacritics (the company matcher compares
 * folded words: "й" as "и", "ę" as "e"). At the end of a word the leftmost match is the longest ending.
 */
const endingOf = (endings: string) => {
  const forms = endings.split(' ').flatMap((e) => [e, e.normalize('NFKD').replace(/\p{M}/gu, '')]);
  return new RegExp(`(?:${[...new Set(forms)].join('|')})$`, 'u');
};

/**
 * The case endings of names in the languages that decline them; the longest that ends a word is taken off
 * (the leftmost match). German declines a name by its genitive "s", and the adjectives of country names
 * in a name by "-en" ("der Deutschen Bank", "die Deutsche Bank"); "Bayern" is no form of "Bayer".
 */
const nameEndings: Record<string, RegExp> = {
  ru: endingOf(
    'ами ями ого его ому ему ыми ими ией ой ей ом ем ым им ах ях ам ям ую юю ию ия ии ий ый ая яя ея а я у ю е ы и ь й',
  ),
  uk: endingOf('ами ями ого ому ими ові еві ою ею ій ий ої ом ем ам ям ах ях а я у ю е і и ї ь й'),
  pl: endingOf('owie owi ami ach ego emu iem em om ie ów a u y i ę ą o'),
  cs: endingOf('ovi ou em ům ách ami y a u e ě i'),
  tr: turkishSuffix,
  de: /(?<=sche)n$|s$/u,
};
/** A stem keeps at least three letters, so a short name stays whole. */
const shortestNameStem = 3;

const cache = new Map<string, NameClues | null>();

/**
 * A name's word without its case ending (`ending`), while a stem of three letters is left. Taken off
 * again until none is left: a name whose own last letters look like an ending ("Газпром", "-ом") loses
 * them in every case alike ("Газпрома" to "газпром" to "газпр"), so all its forms meet.
 */
function nameStemmer(ending: RegExp | undefined): (word: string) => string {
  if (!ending) return (word) => word;
  return (word) => {
    let stem = word;
    for (;;) {
      const found = ending.exec(stem);
      if (!found || found.index < shortestNameStem) return stem;
      stem = stem.slice(0, found.index);
    }
  };
}

/** The clues for a language (ISO 639-1); null for English (the lexicon's) and unknown languages. */
export function nameCluesFor(language: string | null): NameClues | null {
  if (language === null || language === 'en') return null;
  if (!cache.has(language)) cache.set(language, build(language));
  return cache.get(language)!;
}

function build(language: string): NameClues | null {
  const countries = countryNames(language);
  if (!personWords[language] && !organizationWordsBefore[language] && countries.size === 0) return null;
  const stem = stemmerFor(language);
  const listed = (text: string | undefined) => withStems(text?.split(' ') ?? [], stem);
  const persons = listed(personWords[language]);
  const organizationsBefore = listed(organizationWordsBefore[language]);
  const organizationWords = listed(organizationNameWords[language]);
  const countryStems = withStems(
    [...countries].filter((name) => !name.includes(' ')),
    stem,
  );
  const has = (set: ReadonlySet<string>) => (word: string) =>
    set.has(word) || (stem !== null && set.has(`~${stem(word)}`));
  const nameStem = nameStemmer(nameEndings[language]);
  const stemmedName = (name: string) => name.split(' ').map(nameStem).join(' ');
  const cities = (cityNames[language]?.split(' ') ?? []).map((city) => city.replaceAll('_', ' '));
  // Countries of several words and cities by the stems of their words: "Соединённых Штатах", "Москве".
  const places = new Set([...countries, ...cities].map(stemmedName));
  return {
    personBefore: has(persons),
    organizationBefore: has(organizationsBefore),
    organizationWord: has(organizationWords),
    place: (name) =>
      countries.has(name) ||
      (!name.includes(' ') && has(countryStems)(name)) ||
      places.has(stemmedName(name)),
    nameStem,
    firstNameFirst: language !== 'hu',
    declinesNames: nameEndings[language] !== undefined,
    compoundsWords:
      language === 'de' || language === 'nl' || language === 'sv' || language === 'da' || language === 'no',
  };
}

/** The words, and their stems marked with "~" (so a stem never passes for a word). */
function withStems(words: readonly string[], stem: Stem | null): Set<string> {
  const set = new Set(words.filter((w) => w !== ''));
  if (stem) for (const word of [...set]) set.add(`~${stem(word)}`);
  return set;
}

/** Codes ICU names that are no country: the European Union, the eurozone, the United Nations, "unknown". */
const notCountries = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ', 'XA', 'XB']);

/** UN M.49 codes of continents and world regions: Europe, Africa, Latin America, the Middle East... */
const continents = ['002', '005', '009', '013', '019', '021', '142', '145', '150', '151', '419'];

/** Every ISO 3166 region (and continent) ICU names in the language, lowercase ("alemania", "estados unidos"). */
function countryNames(language: string): Set<string> {
  return new Set(countryAndContinentNames(language).map((name) => name.toLowerCase()));
}

/**
 * Every ISO 3166 region and continent ICU names in the language, as ICU writes them (NFC): "Alemania",
 * "الولايات المتحدة". Empty for a language ICU does not know.
 */
export function countryAndContinentNames(language: string): string[] {
  let names: Intl.DisplayNames;
  try {
    names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
  } catch {
    return [];
  }
  if (Intl.DisplayNames.supportedLocalesOf([language]).length === 0) return [];
  const codes = [...continents];
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters) for (const b of letters) if (!notCountries.has(a + b)) codes.push(a + b);
  return codes.flatMap((code) => names.of(code)?.normalize('NFC') ?? []);
}
