// Filler monitors for the matching benchmark's load: invented company names shaped like real ones
// ("Kalomir Holdings plc", "National Vendora Bank", "QXTR Partners LLC" with alias "QXTR"), so the
// index holds 10,000 names as a customer base would. A fifth start with a word that articles use
// all the time ("New", "First", "United", "British"...), which is what makes a first-word index
// work hardest. Seeded, so every run compiles the same names.
import { mulberry32 } from '../../support/mulberry32.ts';

export interface SyntheticMonitor {
  monitorId: string;
  company: string;
  aliases: string[];
}

const syllables =
  'ka lo ve tri mon sa rel dor bi xen qua fi zu pra nor tel vin gar lum os ther cal bro nex ri sto va len dra mir'.split(
    ' ',
  );
const commonFirstWords =
  'New First United General National Royal Global American British European Pacific Northern Southern Premier Capital City Star Blue Green Golden'.split(
    ' ',
  );
const trades =
  'Bank Partners Energy Foods Motors Media Capital Systems Pharma Airlines Insurance Telecom Retail Logistics Mining'.split(
    ' ',
  );
const legalForms = ['plc', 'Inc.', 'Ltd', 'Group', 'Holdings plc', 'AG', 'S.A.', 'LLC', 'Corporation', ''];
const consonants = 'BCDFGHJKLMNPQRSTVWXZ';

export function syntheticMonitors(count: number, seed = 20050101): SyntheticMonitor[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const invented = () => {
    const word = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join('');
    return word[0]!.toUpperCase() + word.slice(1);
  };
  const acronym = () => Array.from({ length: 4 }, () => pick([...consonants])).join('');
  return Array.from({ length: count }, (_, i) => {
    const shape = random();
    const form = pick(legalForms);
    let core: string;
    const aliases: string[] = [];
    if (shape < 0.2) {
      core = `${pick(commonFirstWords)} ${invented()} ${pick(trades)}`;
    } else if (shape < 0.3) {
      core = `${acronym()} ${pick(trades)}`;
      aliases.push(core.split(' ')[0]!);
    } else {
      const name = invented();
      core = random() < 0.5 ? name : `${name} ${pick(trades)}`;
      if (core !== name && random() < 0.3) aliases.push(name);
    }
    return { monitorId: `synthetic-${i}`, company: `${core} ${form}`.trim(), aliases };
  });
}
