import { describe, expect, it } from 'vitest';
import { applyTone } from './tone.ts';

describe('applyTone', () => {
  it('leaves the text as it is for a neutral tone', () => {
    expect(applyTone(["It's done, don't worry."], 'neutral')).toBe("It's done, don't worry.");
  });

  it('spells contractions out for a professional tone', () => {
    expect(
      applyTone(
        ["The firm didn't say why.", "It's clear they won't stop, and we can't tell."],
        'professional',
      ),
    ).toBe('The firm did not say why. It is clear they will not stop, and we cannot tell.');
    expect(applyTone(['It’s been a year and they’re back.'], 'professional')).toBe(
      'It has been a year and they are back.',
    );
  });

  it('contracts common pairs for a casual tone, but not at the end of a clause', () => {
    expect(applyTone(['The firm did not say why.', 'It is clear they will not stop.'], 'casual')).toBe(
      "The firm didn't say why. It's clear they won't stop.",
    );
    expect(applyTone(['That is what it is.'], 'casual')).toBe("That's what it is.");
  });

  it('never rewrites a quotation', () => {
    expect(applyTone(['He said "we do not know" and she did not reply.'], 'casual')).toBe(
      'He said "we do not know" and she didn\'t reply.',
    );
    expect(applyTone(['She said “I can’t say” but didn’t explain.'], 'professional')).toBe(
      'She said “I can’t say” but did not explain.',
    );
  });

  it('lists an executive summary as points, in professional wording', () => {
    expect(applyTone(['Profits fell 12%.', "The firm won't hire."], 'executive')).toBe(
      '- Profits fell 12%.\n- The firm will not hire.',
    );
  });
});
