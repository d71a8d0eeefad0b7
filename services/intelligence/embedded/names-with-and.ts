// Names written with "and" (and commas) in them. A name is found as a run of capitalised words, which
// "and" ends: "Centers for Disease Control and Prevention" came out as "Centers for Disease Control",
// "Marks and Spencer" as "Spencer", and "Bosnia and Herzegovina" as nothing at all. Joining any two runs
// across "and" would make one name of "Biden and Trump", so only the names known here are joined: the
// institutions, companies and places English news writes most, as it writes them.
import { countryAndContinentNames } from './name-clues.ts';

export type KindWithAnd = 'organization' | 'place';

const organizations = `
  Centers for Disease Control and Prevention
  Food and Drug Administration
  Department of Health and Human Services
  Health and Human Services
  Securities and Exchange Commission
  Immigration and Customs Enforcement
  Customs and Border Protection
  Bureau of Alcohol, Tobacco, Firearms and Explosives
  Department of Housing and Urban Development
  Housing and Urban Development
  National Oceanic and Atmospheric Administration
  National Aeronautics and Space Administration
  Fish and Wildlife Service
  Office of Management and Budget
  House Ways and Means Committee
  Ways and Means Committee
  Bill and Melinda Gates Foundation
  Department for Environment, Food and Rural Affairs
  Department for Work and Pensions
  Department for Business and Trade
  Department for Science, Innovation and Technology
  Department for Culture, Media and Sport
  Department for Digital, Culture, Media and Sport
  Department for Energy Security and Net Zero
  Department for Business, Energy and Industrial Strategy
  Department for Levelling Up, Housing and Communities
  Ministry of Housing, Communities and Local Government
  HM Revenue and Customs
  Revenue and Customs
  Health and Safety Executive
  Competition and Markets Authority
  Medicines and Healthcare products Regulatory Agency
  National Institute for Health and Care Excellence
  Driver and Vehicle Licensing Agency
  Driver and Vehicle Standards Agency
  Advisory, Conciliation and Arbitration Service
  Organisation for Economic Co-operation and Development
  Organization for Economic Co-operation and Development
  Organization for Economic Cooperation and Development
  Organisation for Security and Co-operation in Europe
  Organization for Security and Cooperation in Europe
  Food and Agriculture Organization
  United Nations Educational, Scientific and Cultural Organization
  International Bank for Reconstruction and Development
  European Bank for Reconstruction and Development
  International Federation of Red Cross and Red Crescent Societies
  Ministry of Economy, Trade and Industry
  Ministry of Health, Labour and Welfare
  Ministry of Land, Infrastructure, Transport and Tourism
  Ministry of Industry and Information Technology
  Ministry of Human Resources and Social Security
  Ministry of Ecology and Environment
  Ministry of Agriculture and Rural Affairs
  Ministry of Trade and Industry
  Ministry of Economy and Finance
  Ministry of Information and Broadcasting
  Ministry of Road Transport and Highways
  Ministry of Electronics and Information Technology
  Ministry of Petroleum and Natural Gas
  Department of Foreign Affairs and Trade
  Australian Securities and Investments Commission
  Australian Competition and Consumer Commission
  Commonwealth Scientific and Industrial Research Organisation
  Securities and Exchange Board of India
  Environment and Climate Change Canada
  Fisheries and Oceans Canada
  Immigration, Refugees and Citizenship Canada
  Marks and Spencer
  Barnes and Noble
  Procter and Gamble
  Ernst and Young
  Simon and Schuster
  Abercrombie and Fitch
  Dolce and Gabbana
  Bang and Olufsen
  Tate and Lyle
  Marsh and McLennan
  Sullivan and Cromwell
  Allen and Overy
  Slaughter and May
  Brighton and Hove Albion
`;

const places = `
  Saint Kitts and Nevis
  St Kitts and Nevis
  Saint Vincent and the Grenadines
  St Vincent and the Grenadines
  Sao Tome and Principe
  Turks and Caicos
  South Georgia and the South Sandwich Islands
  Tyne and Wear
  Kensington and Chelsea
  Hammersmith and Fulham
  Barking and Dagenham
  Brighton and Hove
  Dumfries and Galloway
  Perth and Kinross
  Argyll and Bute
  Bath and North East Somerset
  Jammu and Kashmir
  Andaman and Nicobar Islands
  Newfoundland and Labrador
`;

/** A name's letters and digits, lowercase, without accents: "Co-operation" and "Co operation" alike. */
export function compactName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();
}

interface Known {
  /** compactName of the whole name. */
  compact: string;
  kind: KindWithAnd;
}

let byFirstWord: Map<string, Known[]> | null = null;
let kinds: Map<string, KindWithAnd> | null = null;

function index(): Map<string, Known[]> {
  if (byFirstWord) return byFirstWord;
  byFirstWord = new Map();
  kinds = new Map();
  const lines = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  // ICU writes "Bosnia & Herzegovina", "Trinidad & Tobago"; news writes "and".
  const countries = countryAndContinentNames('en')
    .filter((name) => name.includes(' & '))
    .map((name) => name.replace(' & ', ' and '));
  const named: [string, KindWithAnd][] = [
    ...lines(organizations).map((name): [string, KindWithAnd] => [name, 'organization']),
    ...[...lines(places), ...countries].map((name): [string, KindWithAnd] => [name, 'place']),
  ];
  for (const [name, kind] of named) {
    const first = compactName(name.split(/[\s,]+/)[0]!);
    const known = { compact: compactName(name), kind };
    byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), known]);
    kinds.set(known.compact, kind);
  }
  return byFirstWord;
}

/** What a name written with "and" is known as ("bosnia and herzegovina": a place), or null. */
export function kindWithAnd(name: string): KindWithAnd | null {
  index();
  return kinds!.get(compactName(name)) ?? null;
}

/**
 * Where a known name written with "and" starts at `start` of these words (token texts, punctuation
 * included): the index after its last word, or -1. The longest such name wins.
 */
export function nameWithAndEnd(words: readonly string[], start: number): number {
  const candidates = index().get(compactName(words[start]!));
  if (!candidates) return -1;
  const longest = Math.max(...candidates.map((c) => c.compact.length));
  let written = '';
  let end = -1;
  for (let k = start; k < words.length && written.length < longest; k += 1) {
    written += compactName(words[k]!);
    if (!candidates.some((c) => c.compact.startsWith(written))) break;
    if (candidates.some((c) => c.compact === written)) end = k + 1;
  }
  return end;
}
