import { describe, expect, it } from 'vitest';
import { isSimpleText, maxTextLength, plainLine, plainText, postedText, textLine } from './plain-text.ts';
import { withoutControlCharacters } from './text-repair.ts';

describe('plainText', () => {
  it('drops tags and decodes entities, keeping paragraphs', () => {
    expect(
      plainText(
        '<p>Caf&eacute; &amp; <b>bar</b></p><p>Second&nbsp;para<img src="x.png"></p><script>x()</script>',
      ),
    ).toBe('Café & bar\n\nSecond para');
  });

  it('skips scripts and styles, and breaks blocks at <br> and list items', () => {
    expect(plainText('<style>p{}</style><ul><li>One</li><li>Two &gt; one</li></ul>a<br>b')).toBe(
      'One\n\nTwo > one\n\na\n\nb',
    );
  });

  it('keeps the cells of a table row apart, a row one line', () => {
    expect(
      plainText(
        '<table><tr><th>Club</th><th>Pts</th></tr><tr><td>Arsenal</td><td>42</td></tr>' +
          '<tr><td> Chelsea </td> <td>40</td></tr></table><p>Next<span>round</span></p>',
      ),
    ).toBe('Club Pts\n\nArsenal 42\n\nChelsea 40\n\nNextround');
  });

  it('passes markup-free text through with paragraphs kept', () => {
    expect(plainText('First  para.\n\nSecond\npara.')).toBe('First para.\n\nSecond para.');
  });

  it('makes one line for titles', () => {
    expect(plainLine('  Breaking:\n <em>markets</em> &lt;fall&gt; ')).toBe('Breaking: markets <fall>');
    expect(plainLine(null)).toBe('');
  });
});

describe('textLine', () => {
  it('makes one line of a typed name: no control, invisible or override character, spaces collapsed', () => {
    expect(textLine('Bad\u0000Name\nline2\u202eRTL')).toBe('BadName line2RTL');
    expect(textLine('  Ctl\u202eTitle\u200b News\t(ok) ')).toBe('CtlTitle News (ok)');
    expect(textLine('AT&T <News> &amp; más')).toBe('AT&T <News> &amp; más');
    expect(textLine('\u0007\u202e ')).toBe('');
  });

  it('composes a decomposed name, so both spellings are one name', () => {
    expect(textLine('Cafe\u0301 Zu\u0308rich')).toBe('Café Zürich');
    expect(textLine('Cafe\u0301 Zu\u0308rich')).toBe(textLine('Café Zürich'));
  });
});

describe('postedText', () => {
  it('reads a text with tags as HTML: no script, no attribute, no tag', () => {
    const html =
      "<script>alert('x')</script><h1>Breaking</h1><p>The <b>Prime Minister</b> of Canada met " +
      "<a href='http://evil'>President Biden</a> in Ottawa.</p><img src=x onerror=alert(1)>";
    expect(postedText(html)).toBe('Breaking\n\nThe Prime Minister of Canada met President Biden in Ottawa.');
  });

  it("leaves out a page's menus, footer, sidebars and forms, unless they are all there is", () => {
    const page =
      '<nav>Home | About | Contact</nav><h1>Floods hit Valencia</h1><aside>Most read: Cup final</aside>' +
      '<p>Heavy rain caused flooding.</p><form>Search <button>Go</button></form>' +
      '<footer>© 2026 Example News. All rights reserved.</footer>';
    expect(postedText(page)).toBe('Floods hit Valencia\n\nHeavy rain caused flooding.');
    expect(postedText('<aside>The council met on Monday.</aside>')).toBe('The council met on Monday.');
    // a feed item's HTML is the article: its fact box stays
    expect(plainText('<p>Rates rose.</p><aside>Key facts: the rate is 5%.</aside>')).toBe(
      'Rates rose.\n\nKey facts: the rate is 5%.',
    );
  });

  it('keeps a text without tags as it is, paragraphs and comparisons too, without control characters', () => {
    expect(postedText('Profits rose 5% as costs < revenue.\n\nAT&T said x<y &amp; more.')).toBe(
      'Profits rose 5% as costs < revenue.\n\nAT&T said x<y &amp; more.',
    );
    expect(
      postedText('The mayor of Paris\u0000 announced\u0007 a\u001b[31m plan\u200b\u202e on Friday.'),
    ).toBe('The mayor of Paris announced a[31m plan on Friday.');
  });
});

describe('plainText and invisible characters', () => {
  it('removes soft hyphens, zero-width spaces, word joiners and byte order marks', () => {
    expect(plainLine('Infla\u00adtion')).toBe('Inflation');
    expect(plainLine('Infla&shy;tion &amp; zero\u200bwidth\u2060joined\ufeff')).toBe(
      'Inflation & zerowidthjoined',
    );
    expect(plainText('<p>Hyphen&#173;ated</p><p>\u200b</p><p>a \u200b b</p>')).toBe('Hyphenated\n\na b');
  });

  it('removes bidirectional embeddings, overrides and isolates, and keeps the marks', () => {
    // "Invoice \u202egnp.exe" displays as "Invoice exe.png".
    expect(plainLine('Invoice \u202egnp.exe')).toBe('Invoice gnp.exe');
    expect(plainLine('a\u202ab\u202bc\u202cd\u202de\u2066f\u2067g\u2068h\u2069i')).toBe('abcdefghi');
    expect(plainLine('עברית\u200f (CNN)\u200e')).toBe('עברית\u200f (CNN)\u200e');
  });

  it('keeps the joiners that scripts and emoji need', () => {
    // Persian's zero-width non-joiner, a Devanagari conjunct's joiner, an emoji sequence.
    for (const text of ['می\u200cخواهم', 'क्\u200dष', '👩\u200d💻 coder', '👨\u200d👩\u200d👧\u200d👦'])
      expect(plainLine(text), JSON.stringify(text)).toBe(text);
  });
});

describe('plainText and control characters', () => {
  it('drops the control characters that decoding references makes, and unpaired surrogates', () => {
    expect(plainText('<p>a&#1;b&#x1b;c&#127;d</p>')).toBe('abcd');
    expect(plainLine('x&#xD800;y \ud83d')).toBe('x\ufffdy \ufffd');
  });

  it('reads C1 references as windows-1252, as browsers do', () => {
    expect(plainLine('it&#146;s &#x93;ok&#x94;')).toBe('it’s “ok”');
  });

  it('never cuts a surrogate pair in half at the length limit', () => {
    const text = plainText('a'.repeat(maxTextLength - 1) + '😀');
    expect(text).toBe('a'.repeat(maxTextLength - 1));
  });
});

/** Characters to build texts from: what isSimpleText takes, and each kind of what it must not. */
const alphabet = [
  ...'abc XYZ 019 .,;:!?-\'"()[]/',
  ...'é ß ñ Ł ő ǅ ʼ ˈ ¡ ¿ « » ° ± ×',
  ...'‐ – — ‘ ’ “ ” • … ‰ ′ ″ ‹ › ⁄ ⁞ €',
  ...['\n', '\r', '\t', '\v', '\f', '\u00a0', '\u00ad', '\u1680', '\u2003', '\u200b', '\u2028'],
  ...['\u202f', '\u205f', '\u2060', '\u3000', '\ufeff', '\ufffe', '\u0001', '\u007f', '\u0085'],
  ...['\u0301', '\u0344', '\u2126', '\ud83d', '\ude00', '😀', '\ud800x', '  '],
];

function randomTexts(count: number, seed: number): string[] {
  let s = seed;
  const random = () => ((s = Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    let text = '';
    const length = Math.floor(random() * 30);
    // Mostly the simple kind, as in real titles, so that both paths run often.
    const simple = random() < 0.5;
    for (let i = 0; i < length; i++) {
      const pick = simple
        ? alphabet[Math.floor(random() * 60)]!
        : alphabet[Math.floor(random() * alphabet.length)]!;
      text += pick;
    }
    return text;
  });
}

/** The markup-free path as it was before isSimpleText: every text through every step. */
const cleaned = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((block) =>
      withoutControlCharacters(block)
        .replace(/[\u00ad\u200b\u2060\u202a-\u202e\u2066-\u2069]/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n\n');

describe('isSimpleText', () => {
  it('takes printable text with single spaces between words, and nothing else', () => {
    expect(isSimpleText('Markets fall: “worst week” since 2008 – €3bn lost…')).toBe(true);
    expect(isSimpleText('Łódź’s café ʻŌlelo')).toBe(true);
    for (const text of ['', ' a', 'a ', 'a  b', 'a\nb', 'a\tb', 'a\u00a0b', 'soft\u00adhyphen', 'e\u0301'])
      expect(isSimpleText(text), JSON.stringify(text)).toBe(false);
    for (const text of ['zero\u200bwidth', 'bom\ufeff', 'c1\u0085', 'em\u2003space', 'line\u2028sep', '😀'])
      expect(isSimpleText(text), JSON.stringify(text)).toBe(false);
  });

  it('passes only text that the cleaning steps and NFC leave as it is', () => {
    for (const text of randomTexts(20_000, 7)) {
      if (!isSimpleText(text)) continue;
      expect(cleaned(text), JSON.stringify(text)).toBe(text);
      expect(text.normalize('NFC'), JSON.stringify(text)).toBe(text);
    }
  });

  it('takes no character that NFC changes or composes with the one before it', () => {
    const taken: string[] = [];
    for (let c = 0; c < 0x10000; c++)
      if (isSimpleText(`a${String.fromCharCode(c)}a`)) taken.push(String.fromCharCode(c));
    expect(taken.length).toBeGreaterThan(700);
    for (const first of taken)
      for (const second of taken) {
        const pair = first + second;
        if (pair.normalize('NFC') !== pair) expect.fail(`NFC changes ${JSON.stringify(pair)}`);
      }
  });
});

describe('plainText and plainLine of markup-free text', () => {
  it('give what every cleaning step gives, simple text or not', () => {
    for (const text of randomTexts(20_000, 11)) {
      expect(plainText(text), JSON.stringify(text)).toBe(cleaned(text));
      expect(plainLine(text), JSON.stringify(text)).toBe(cleaned(text).replace(/\s+/g, ' ').trim());
    }
  });
});
