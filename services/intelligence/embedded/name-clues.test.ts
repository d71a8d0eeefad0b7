import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.ts';
import { latinSpellings } from './cyrillic-latin.ts';
import { nameCluesFor } from './name-clues.ts';
import { withoutAccents } from './without-accents.ts';
import { parseSentences } from './sentences.ts';

const typed = (language: string, lines: string[]) =>
  Object.fromEntries(
    extractEntities([], parseSentences(lines.join('\n'), language), language).map((e) => [e.name, e.type]),
  );

describe('the kinds of names in other languages', () => {
  it('Spanish: titles and company words before a name, countries, and accented names', () => {
    expect(
      typed('es', [
        'Los despidos afectarán sobre todo a las fábricas de Alemania y Polonia, y a otras de Europa.',
        'La consejera delegada, María López, dijo que los recortes eran dolorosos pero necesarios.',
        'El presidente Pedro Sánchez se reunió con la empresa Iberdrola y con el Banco Santander en Berlín.',
      ]),
    ).toEqual({
      Alemania: 'place',
      Polonia: 'place',
      Europa: 'place',
      'María López': 'person', // the English lexicon's Maria and Lopez, without their accents
      'Pedro Sánchez': 'person',
      Iberdrola: 'organization',
      'Banco Santander': 'organization',
      Berlín: 'place',
    });
  });

  it('Russian: a title with its complement before the name, and countries in any case', () => {
    expect(
      typed('ru', [
        'Сокращения в основном затронут заводы в Германии и Польше, где спрос замедлился.',
        'Министр финансов Антон Силуанов встретился с руководством компании Роснефть.',
        'Генеральный директор Мария Лопес заявила, что сокращения необходимы.',
      ]),
    ).toEqual({
      Германии: 'place',
      Польше: 'place',
      'Антон Силуанов': 'person',
      Роснефть: 'organization',
      'Мария Лопес': 'person',
    });
  });

  it('Russian: a person without a title, by the first or last name the lexicon knows in Latin letters', () => {
    expect(
      typed('ru', [
        'Вчера Мария Лопес выступила на конференции, а Владимир Путин подписал указ.',
        'Об этом сообщил Андрей Белоусов.',
      ]),
    ).toMatchObject({ 'Мария Лопес': 'person', 'Владимир Путин': 'person', 'Андрей Белоусов': 'person' });
  });

  it('French: a group, a minister and a bank', () => {
    expect(
      typed('fr', [
        "Le groupe Renault va supprimer 1 200 emplois en Allemagne, a annoncé l'entreprise mardi.",
        'La ministre Agnès Pannier-Runacher a dénoncé un plan brutal.',
        'La Banque de France reste prudente.',
      ]),
    ).toMatchObject({
      Renault: 'organization',
      Allemagne: 'place',
      'Agnès Pannier Runacher': 'person',
      'Banque de France': 'organization',
    });
  });

  it('takes a sentence-opening word into the name after it, unless that name starts with a first name', () => {
    expect(
      typed('de', [
        'Deutsche Bank meldet einen Gewinn, die Aktie steigt.',
        'Gestern Olaf Scholz sprach in Berlin.',
      ]),
    ).toMatchObject({ 'Deutsche Bank': 'organization', 'Olaf Scholz': 'person' });
  });

  it('leaves a name without clues as it was', () => {
    // Neither a title nor a known name: a capitalised word the article repeats, of no known kind.
    expect(typed('es', ['Ayer habló Zorbatek en el pleno.', 'Zorbatek no quiso dar detalles.'])).toEqual({
      Zorbatek: 'other',
    });
  });

  it('has no clues for English, whose lexicon knows its names, nor for a language ICU does not know', () => {
    expect(nameCluesFor('en')).toBeNull();
    expect(nameCluesFor('xx')).toBeNull();
    expect(nameCluesFor('es')!.country('estados unidos')).toBe(true);
    expect(nameCluesFor('es')!.country('unión europea')).toBe(false);
    expect(withoutAccents('Sánchez')).toBe('Sanchez');
  });
});

describe('latinSpellings', () => {
  it('spells a Cyrillic word the common way and with i for й and я after и', () => {
    expect(latinSpellings('мария')).toEqual(['mariya', 'maria']);
    expect(latinSpellings('андрей')).toEqual(['andrey', 'andrei']);
    expect(latinSpellings('путин')).toEqual(['putin']);
    expect(latinSpellings('maría')).toEqual([]);
  });
});
