import { describe, expect, it } from 'vitest';
import { plainLine, plainText } from './plain-text.ts';

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
