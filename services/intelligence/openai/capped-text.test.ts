import { describe, expect, it } from 'vitest';
import { capText } from './capped-text.ts';

describe('capText', () => {
  it('leaves text within the cap alone', () => {
    expect(capText('Short. Text.', 100)).toEqual({
      text: 'Short. Text.',
      truncated: false,
      originalLength: 12,
    });
  });

  it('cuts at the last paragraph break within the cap', () => {
    const text = `${'a'.repeat(60)}.\n\n${'b'.repeat(30)}. ${'c'.repeat(30)}.\n\n${'d'.repeat(60)}`;
    const capped = capText(text, 130);
    expect(capped.text).toBe(`${'a'.repeat(60)}.\n\n${'b'.repeat(30)}. ${'c'.repeat(30)}.`);
    expect(capped).toMatchObject({ truncated: true, originalLength: text.length });
  });

  it('cuts at the last sentence end when there is no paragraph break', () => {
    const text = 'First sentence here. Second sentence here! Third sentence is longer than the cap allows.';
    expect(capText(text, 60).text).toBe('First sentence here. Second sentence here!');
  });

  it('cuts at a word, then anywhere, when no boundary falls in the second half of the cap', () => {
    expect(capText(`${'word '.repeat(40)}`, 52).text).toBe('word '.repeat(10).trim());
    expect(capText('x'.repeat(100), 40).text).toBe('x'.repeat(40));
  });

  it('never returns more than the cap', () => {
    const text = 'One. Two three.\nFour five six. '.repeat(500);
    for (const cap of [500, 1234, 4000]) expect(capText(text, cap).text.length).toBeLessThanOrEqual(cap);
  });
});
