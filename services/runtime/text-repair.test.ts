import { describe, expect, it } from 'vitest';
import {
  c1AsWindows1252,
  joinedSurrogateReferences,
  repairText,
  undoDoubleEncoding,
  withoutControlCharacters,
} from './text-repair.ts';

// UTF-8 bytes of `text` read as windows-1252 (or latin1): what a wrong decoder makes.
const misread = (text: string, as: 'windows-1252' | 'latin1' = 'windows-1252') => {
  const latin1 = Buffer.from(text, 'utf8').toString('latin1');
  return as === 'latin1' ? latin1 : c1AsWindows1252(latin1);
};

describe('c1AsWindows1252', () => {
  it('reads C1 controls as the windows-1252 characters they were written as', () => {
    expect(c1AsWindows1252('it\u0092s \u0093quoted\u0094 \u0096 \u0080 5\u0085 \u0099')).toBe(
      'it’s “quoted” – € 5… ™',
    );
  });

  it('leaves the five bytes windows-1252 does not define, and everything else, alone', () => {
    expect(c1AsWindows1252('\u0081\u008d\u008f\u0090\u009d')).toBe('\u0081\u008d\u008f\u0090\u009d');
    expect(c1AsWindows1252('Zürich – 東京 ’')).toBe('Zürich – 東京 ’');
  });
});

describe('undoDoubleEncoding', () => {
  it.each([
    'café',
    'été à Paris',
    'it’s “quoted” — really…',
    'São Paulo, informações, coração',
    'Ação Política: VOCÊ',
    'Zażółć gęślą jaźń',
    'Crème brûlée for 5 €',
    'Москва',
    'Ελλάδα',
    'שלום',
    '東京',
    'emoji 😀 too',
    'CAFÉ',
    'CÔTE D’IVOIRE',
    'Íslenska and Á',
    '10 °C, © 2024, £5',
  ])('reads back "%s" after it was decoded as windows-1252 and latin1', (text) => {
    expect(undoDoubleEncoding(misread(text))).toBe(text);
    expect(undoDoubleEncoding(c1AsWindows1252(misread(text, 'latin1')))).toBe(text);
  });

  it('reads back text encoded twice over', () => {
    expect(undoDoubleEncoding(misread(misread('l’été')))).toBe('l’été');
  });

  it('keeps the parts of a text that were right', () => {
    expect(undoDoubleEncoding(`Zürich: ${misread('café')} – ok`)).toBe('Zürich: café – ok');
  });

  it.each([
    ['Portuguese capitals', 'SÃO PAULO, MARANHÃO, IRMÃ, ALEMÃ E CRISTÃ'],
    // Written with escapes: “IRMÃ”, «IRMÃ», AMANHÃ… and “MANHÃ’S” are real text that forms valid pairs.
    [
      'a capital Ã before closing punctuation',
      '\u201cIRM\u00c3\u201d, \u00abIRM\u00c3\u00bb, AMANH\u00c3\u2026 e \u201cMANH\u00c3\u2019S\u201d',
    ],
    ['a French capital before a closing guillemet', '« CAFÉ » et «CAFÉ»'],
    ['German', 'Größe, Fuß”, STRAßE, Ärger'],
    ['a capital É before a quote', 'CAFÉ’S'],
    ['Latin-1 letters side by side', 'ÀÉÎÕÜ àéîõü ÿß'],
    ['ordinary punctuation', '«\u00a0Bonjour\u00a0», “hi” – ‘x’ …'],
    ['Czech', 'ŽLUŤOUČKÝ KŮŇ, ÚSPĚŠNÝ'],
    ['a run that is only partly valid UTF-8', 'Ã©» and â€x'],
    ['CJK and Cyrillic', '東京 Москва'],
  ])('leaves legitimate text alone: %s', (_name, text) => {
    expect(undoDoubleEncoding(text)).toBe(text);
  });

  it('does not turn a run into control characters or unassigned code points', () => {
    expect(undoDoubleEncoding('Â\u0081')).toBe('Â\u0081'); // would be U+0081
    expect(undoDoubleEncoding('ï¿¾')).toBe('ï¿¾'); // would be the noncharacter U+FFFE
  });
});

describe('withoutControlCharacters', () => {
  it('drops C0 and C1 controls but tab and newline, makes CR a newline and the separating ones a space', () => {
    expect(withoutControlCharacters('a\u0000b\u0001c\u0008d\u000be\u000cf\u001bg\u007fh\u0085i\u009fj')).toBe(
      'abcd e fgh ij',
    );
    expect(withoutControlCharacters('Control\u000bchar\u001fin title')).toBe('Control char in title');
    expect(withoutControlCharacters('one\ttwo\nthree\r\nfour\rfive')).toBe('one\ttwo\nthree\nfour\nfive');
  });

  it('replaces unpaired surrogates and keeps pairs', () => {
    expect(withoutControlCharacters('a\ud800b\udc00c 😀 \ud83d')).toBe('a\ufffdb\ufffdc 😀 \ufffd');
  });

  it('drops a byte order mark inside the text and the noncharacters U+FFFE/U+FFFF', () => {
    expect(withoutControlCharacters('\ufeffTitle\ufffe\uffff')).toBe('Title');
  });
});

describe('repairText', () => {
  it('maps C1, undoes double encoding and cleans, in that order', () => {
    // latin1-decoded mojibake carries C1 controls: they must be read as bytes, not dropped.
    expect(repairText(misread('it’s “é”', 'latin1'))).toBe('it’s “é”');
    expect(repairText('ï»¿Title\u0001 \u0092ok\u0092')).toBe('Title ’ok’');
  });

  it('returns printable ASCII as it is', () => {
    const text = 'Plain ASCII title, nothing to do.';
    expect(repairText(text)).toBe(text);
  });
});

describe('joinedSurrogateReferences', () => {
  it('makes references to the two halves of a pair one reference, decimal or hex, and leaves the rest', () => {
    expect(joinedSurrogateReferences('Smile &#55357;&#56832; now')).toBe('Smile &#x1f600; now');
    expect(joinedSurrogateReferences('&#xD83D;&#xDE00;&#xd83d;&#xde80;')).toBe('&#x1f600;&#x1f680;');
    // Halves apart, alone or in the wrong order, and other references: as they are.
    for (const text of [
      '&#55357; &#56832;',
      '&#56832;&#55357;',
      '&#55357;x',
      'caf&#233; &amp; &#8217;',
      'plain',
    ])
      expect(joinedSurrogateReferences(text)).toBe(text);
    expect(joinedSurrogateReferences('&#55357;&#55357;&#56832;')).toBe('&#55357;&#x1f600;');
  });
});
