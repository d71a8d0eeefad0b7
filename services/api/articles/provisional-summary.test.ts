import { describe, expect, it } from 'vitest';
import { provisionalAiSummary } from './provisional-summary.ts';

describe('provisionalAiSummary', () => {
  it("takes the sentence of the feed's summary that best tells its story", () => {
    const summary =
      'Shares in the chip maker rose 12% after it raised its forecast. Analysts had expected a cut. ' +
      'The company also named a new finance chief.';
    const chosen = provisionalAiSummary('Chip maker raises forecast, shares jump', summary);
    expect(chosen).toBe('Shares in the chip maker rose 12% after it raised its forecast.');
  });

  it('is the summary itself when it is one sentence, the title when the feed gave no summary', () => {
    expect(provisionalAiSummary('Title', 'Just one sentence here.')).toBe('Just one sentence here.');
    expect(provisionalAiSummary('Storm closes schools', '  ')).toBe('Storm closes schools');
    expect(provisionalAiSummary('', '')).toBe('');
  });
});
