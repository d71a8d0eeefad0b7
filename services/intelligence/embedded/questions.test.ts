import { describe, expect, it } from 'vitest';
import type { Entity } from '../provider.ts';
import { maxQuestions, minQuestions, questionsToThinkAbout } from './questions.ts';
import { parseSentences } from './sentences.ts';

const entity = (name: string, type: Entity['type']): Entity => ({ name, type, salience: 1, mentions: 2 });

describe('questionsToThinkAbout', () => {
  it('asks why the named actor did what the article says it did', () => {
    const sentences = parseSentences('For the full year, TimeWarner posted a profit of $3.36bn, up 27%.');
    const [first] = questionsToThinkAbout({
      sentences,
      entities: [entity('TimeWarner', 'organization')],
      keywords: [],
    });
    expect(first).toBe('Why did TimeWarner post a profit of $3.36bn?');
  });

  it('moves a modal to the front and stops at the next clause', () => {
    const sentences = parseSentences('Acme Corp will cut 1,200 jobs in Europe after its profits fell.');
    const [first] = questionsToThinkAbout({
      sentences,
      entities: [entity('Acme Corp', 'organization')],
      keywords: [],
    });
    expect(first).toBe('Why will Acme Corp cut 1,200 jobs in Europe?');
  });

  it('does not take a place inside the subject for the actor', () => {
    const sentences = parseSentences('Unions in Germany condemned the plan.');
    const questions = questionsToThinkAbout({
      sentences,
      entities: [entity('Germany', 'place')],
      keywords: [],
    });
    expect(questions.some((q) => q.startsWith('Why did Germany'))).toBe(false);
  });

  it('asks what a figure means and how the main topic affects someone, in the article’s words', () => {
    const sentences = parseSentences(
      'Acme Corp profits fell 18%.\nThe layoffs will hit Poland.\nMore layoffs may follow.',
    );
    const questions = questionsToThinkAbout({
      sentences,
      entities: [entity('Acme Corp', 'organization'), entity('Poland', 'place')],
      keywords: ['layoff'],
    });
    expect(questions).toContain('What could 18% mean for Acme Corp?');
    expect(questions).toContain('How might the layoffs affect Poland?');
    expect(questions.length).toBeGreaterThanOrEqual(minQuestions);
    expect(questions.length).toBeLessThanOrEqual(maxQuestions);
  });

  it("asks in the article's language where it has the questions, with its names and figures", () => {
    const ask = (language: string, text: string, name: string) =>
      questionsToThinkAbout({
        sentences: parseSentences(text, language),
        entities: [entity(name, 'organization')],
        keywords: [],
        language,
      });
    const french = ask('fr', 'Le groupe Renault va supprimer 5 % de ses effectifs en France.', 'Renault');
    expect(french.slice(0, 2)).toEqual([
      'Renault : que pourrait signifier 5 % ?',
      'Renault : que va-t-il se passer ensuite ?',
    ]);
    // The name opens the question: inside it, it would need an article ("con el Consejo") or, in
    // Russian, a case ending after a preposition.
    expect(ask('es', 'El Consejo de Ministros aprobó el plan.', 'Consejo de Ministros')[0]).toBe(
      'Consejo de Ministros: ¿qué pasará ahora?',
    );
    expect(ask('ru', 'Газпром сообщил о росте прибыли на 15%.', 'Газпром').slice(0, 2)).toEqual([
      'Газпром: что может означать 15%?',
      'Газпром: что будет дальше?',
    ]);
    for (const language of ['de', 'es', 'it', 'pt', 'nl']) {
      const questions = ask(language, 'Acme.', 'Acme');
      expect(questions.length, language).toBeGreaterThanOrEqual(minQuestions);
      expect(
        questions.some((q) => /^(Why|What|Who|How)\b/.test(q)),
        language,
      ).toBe(false);
    }
    // A language without them: English, as before.
    expect(ask('sw', 'Acme.', 'Acme')).toContain('What happens next for Acme?');
  });

  it('still gives three questions for an article with no names or figures', () => {
    const questions = questionsToThinkAbout({
      sentences: parseSentences('It rained.'),
      entities: [],
      keywords: [],
    });
    expect(questions).toHaveLength(minQuestions);
  });
});
