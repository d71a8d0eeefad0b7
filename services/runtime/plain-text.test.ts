import { describe, expect, it } from 'vitest';
import { maxTextLength, plainLine, plainText } from './plain-text.ts';

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

  it('passes markup-free text through with paragraphs kept', () => {
    expect(plainText('First  para.\n\nSecond\npara.')).toBe('First para.\n\nSecond para.');
  });

  it('makes one line for titles', () => {
    expect(plainLine('  Breaking:\n <em>markets</em> &lt;fall&gt; ')).toBe('Breaking: markets <fall>');
    expect(plainLine(null)).toBe('');
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
