import { describe, expect, it } from 'vitest';
import { isNotWriting } from './page-furniture.ts';

describe('isNotWriting', () => {
  it('tells furniture from writing that starts the same way', () => {
    expect(isNotWriting('By John Smith')).toBe(true);
    expect(isNotWriting('By Sarah Jones, Technology reporter')).toBe(true);
    expect(isNotWriting('Photo credit: Reuters')).toBe(true);
    expect(isNotWriting('Related: Acme warns on profits')).toBe(true);
    expect(isNotWriting('Image copyright Getty Images')).toBe(true);
    expect(isNotWriting('The post Acme cuts jobs appeared first on Daily Wire.')).toBe(true);
    expect(isNotWriting('By the end of the year, the plant will employ 2,000 people.')).toBe(false);
    expect(isNotWriting('By Monday, Acme had cut 500 jobs.')).toBe(false);
    expect(isNotWriting('Sign up for our daily newsletter.')).toBe(true);
  });

  it('tells a call to subscribe to a newsletter, however long and in the languages feeds use', () => {
    for (const line of [
      'Sign up for our newsletter: get the most important stories about the city council, the schools and the roads in your inbox every morning.',
      'Subscribe to our newsletter and never miss an important story from the city council again.',
      'Schrijf je in voor onze nieuwsbrief en mis geen enkel nieuws.',
      'Melden Sie sich für unseren Newsletter an und verpassen Sie keine Nachricht.',
      'Abonnez-vous à notre newsletter pour ne rien manquer.',
      'Suscríbete a nuestro boletín y recibe las noticias cada mañana.',
      'Iscriviti alla nostra newsletter per ricevere le notizie.',
      'Assine a nossa newsletter e receba as notícias.',
      'Подпишитесь на нашу рассылку, чтобы не пропустить новости.',
    ])
      expect(isNotWriting(line), line).toBe(true);
    // News about a newsletter, or about subscribers, is writing.
    expect(isNotWriting('The bank said in its newsletter that rates would rise again in the spring.')).toBe(
      false,
    );
    expect(
      isNotWriting('Subscribers to the service rose by a fifth in the quarter, the company said on Monday.'),
    ).toBe(false);
    expect(
      isNotWriting('Related stories were published by other outlets over the following days and weeks.'),
    ).toBe(false);
  });
});
