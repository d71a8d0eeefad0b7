import { describe, expect, it } from 'vitest';
import { opensCompanyNews } from './company-news.ts';
import { tokenize } from './tokens.ts';

/** Whether the words after the first word of `text` make it a company. */
const opens = (text: string) => opensCompanyNews(tokenize([text]).tokens, { first: 0, last: 0 });
const each = (texts: string[], expected: boolean) => {
  for (const text of texts) expect([text, opens(text)]).toEqual([text, expected]);
};

describe('opensCompanyNews', () => {
  it('takes a verb of speech after the name for enough', () => {
    each(
      [
        'Orange said on Tuesday it would cut jobs.',
        'Shell warned of lower margins.',
        'Apple told analysts it was confident.',
        'Orange also said it would appeal.',
        'Orange has said it will appeal.',
        'Next on Thursday said it would appeal.',
        'Orange is said to be in talks.',
      ],
      true,
    );
  });

  it('takes the name for the subject of other verbs in a sentence about a company', () => {
    each(
      [
        'Next reported a 5% rise in sales.',
        'Orange also confirmed its forecast for core profit.',
        'Next has been closing smaller shops.',
        'Orange has about 80,000 employees in France.',
        'Orange is cutting 1,000 jobs.',
        'Next is to close 10 stores.',
        "Next's profits rose 5%.",
        'Orange to cut 2,000 jobs in France',
        'Next lifts profit forecast after strong Christmas',
      ],
      true,
    );
  });

  it('does not take another verb, an auxiliary or a copula alone in a sentence that is not about a company', () => {
    each(
      [
        'Orange is the colour of the season.',
        'Total reported cases rose to 5,000.',
        'Next will be a test of nerve.',
        'Orange is cutting through the noise.',
      ],
      false,
    );
  });

  it('does not take the common word before a noun, or apart from its verb, for a subject', () => {
    each(
      [
        'Next week the council meets to discuss shops and jobs.',
        'Next year, sales will rise.',
        'Total sales rose 5%.',
        'Next comes the profit warning.',
        'Next, the chief executive said, comes the hard part.',
        'Next to the station, shops are closing.',
        'Ford-owned Jaguar cut jobs.',
      ],
      false,
    );
  });

  it('reads only the sentence of the name', () => {
    each(['Orange is cutting back. Profits fell.', 'Orange has one.\nShares fell.'], false);
  });
});
