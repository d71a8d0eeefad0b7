import { describe, expect, it } from 'vitest';
import { isInsideANamesake } from './namesakes.ts';
import { tokenize } from './tokens.ts';

/** Whether the first word of `text` written `name` is inside a namesake. */
function inside(text: string, name: string): boolean {
  const { tokens } = tokenize([text]);
  const at = tokens.findIndex((t) => t.text === name);
  if (at < 0) throw new Error(`${name} not in ${text}`);
  return isInsideANamesake(tokens, { first: at, last: at });
}

describe('isInsideANamesake', () => {
  it('finds a name inside a namesake wherever it stands in it, in any case', () => {
    expect(inside('William III, Prince of Orange, landed in 1688.', 'Orange')).toBe(true);
    expect(inside('the prince of Orange', 'Orange')).toBe(true);
    expect(inside('maps of the Orange Free State', 'Orange')).toBe(true);
    expect(inside('fires in the Brazilian Amazon', 'Amazon')).toBe(true);
    expect(inside('Tourists flock to the Big Apple.', 'Apple')).toBe(true);
  });

  it("lets only the namesake's last word be possessive", () => {
    expect(inside("the Prince of Orange's court", "Orange's")).toBe(true);
    expect(inside("Orange's Free State", "Orange's")).toBe(false);
  });

  it('needs its words in order, in one sentence, with only spaces between them', () => {
    expect(inside('Orange said the free state would pay.', 'Orange')).toBe(false);
    expect(inside('The Prince, of Orange fame, spoke.', 'Orange')).toBe(false);
    expect(inside('He met the prince.\nOf Orange he said nothing.', 'Orange')).toBe(false);
    expect(inside('Shares in Orange rose.', 'Orange')).toBe(false);
  });
});
