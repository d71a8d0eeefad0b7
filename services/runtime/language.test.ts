import { describe, expect, it } from 'vitest';
import { declaredOrDetected } from './language.ts';

const portuguese =
  'O governo anunciou nesta quarta-feira um novo pacote de medidas para conter a inflação e estimular o crescimento econômico do país.';
// franc reads these as French, with other languages close behind.
const headlines =
  'Kanye West. Kim Kardashian. Taylor Swift tour. Man Utd vs Chelsea. Bitcoin price today. Elon Musk. Premier League table. NBA playoffs.';

describe('declaredOrDetected', () => {
  it('keeps the declared language unless detection is clear', () => {
    expect(declaredOrDetected(headlines, 'en')).toBe('en');
    expect(declaredOrDetected(portuguese, 'en')).toBe('pt');
    expect(declaredOrDetected(portuguese, 'pt')).toBe('pt');
  });

  it('keeps the declaration for a text too short to tell, and detects where nothing is declared', () => {
    expect(declaredOrDetected('Olá mundo', 'en')).toBe('en');
    expect(declaredOrDetected(portuguese, null)).toBe('pt');
    expect(declaredOrDetected('Olá mundo', null)).toBeNull();
  });
});
