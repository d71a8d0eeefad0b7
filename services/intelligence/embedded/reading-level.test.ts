import { describe, expect, it } from 'vitest';
import { gradeForEase, gradeLabel, readingLevel } from './reading-level.ts';
import { parseSentences } from './sentences.ts';

describe('readingLevel', () => {
  it('rates short words in short sentences easy', () => {
    const level = readingLevel(parseSentences('The cat sat on the mat. It was a big cat. The dog ran off.'));
    expect(level!.label).toBe('elementary');
    expect(level!.ease).toBeGreaterThan(90);
  });

  it('rates long sentences of long words hard', () => {
    const level = readingLevel(
      parseSentences(
        'The administration’s comprehensive macroeconomic stabilisation programme, notwithstanding considerable institutional opposition, substantially reconfigured intergovernmental fiscal responsibilities.',
      ),
    );
    expect(level!.label).toBe('graduate');
    expect(level!.ease).toBeLessThan(10);
  });

  it('computes Flesch-Kincaid and reading ease from words, sentences and syllables', () => {
    // 1 sentence, 7 words, 14 syllables (the gov-ern-ment an-nounced a new pol-i-cy yes-ter-day):
    // grade 0.39*7 + 11.8*2 - 15.59 = 10.74; ease 206.835 - 1.015*7 - 84.6*2 = 30.53.
    const level = readingLevel(parseSentences('The government announced a new policy yesterday.'));
    expect(level).toEqual({ grade: 10.7, ease: 30.5, label: 'high school' });
  });

  it('labels grades by school level', () => {
    expect([5.9, 6, 8.9, 9, 12.9, 13, 15.9, 16].map(gradeLabel)).toEqual([
      'elementary',
      'middle school',
      'middle school',
      'high school',
      'high school',
      'college',
      'college',
      'graduate',
    ]);
  });

  it("uses a language's own adaptation of Flesch, with its syllables", () => {
    // Russian: each vowel letter a syllable. 1 sentence, 3 words, 6 syllables (ма-ма мы-ла ра-му):
    // Oborneva 206.835 - 1.3*3 - 60.1*2 = 82.7: between fifth and sixth grade on Flesch's table.
    expect(readingLevel(parseSentences('Мама мыла раму.', 'ru'), 'ru')).toEqual({
      grade: 5.7,
      ease: 82.7,
      label: 'elementary',
    });
    const easy = readingLevel(
      parseSentences('El gato come. El perro duerme. La casa es grande.', 'es'),
      'es',
    );
    const hard = readingLevel(
      parseSentences(
        'La administración consideró imprescindible la reestructuración institucional de las competencias intergubernamentales, independientemente de las consecuencias presupuestarias correspondientes.',
        'es',
      ),
      'es',
    );
    expect(easy!.ease).toBeGreaterThan(80);
    expect(hard!.ease).toBeLessThan(30);
    expect(hard!.label).toBe('graduate');
    // Turkish, Ateşman: 1 sentence, 3 words, 7 syllables (a-li o-ku-la git-ti):
    // 198.825 - 2.61*3 - 40.175*7/3 = 97.3.
    expect(readingLevel(parseSentences('Ali okula gitti.', 'tr'), 'tr')).toMatchObject({ ease: 97.3 });
  });

  it('gives none for a text in another script, in a language without an adaptation of its own', () => {
    const japanese = '日本銀行は19日、マイナス金利政策の解除を決定した。植田和男総裁は記者会見した。';
    expect(readingLevel(parseSentences(japanese, 'ja'), 'ja')).toBeNull();
    expect(
      readingLevel(parseSentences('البنك المركزي يرفع الفائدة. وقال المحافظ إن التضخم مرتفع.', 'ar'), 'ar'),
    ).toBeNull();
    // Russian has its own; Swedish is Latin text, read with English's formulas.
    expect(readingLevel(parseSentences('Банк повысил ставку.', 'ru'), 'ru')).not.toBeNull();
    expect(readingLevel(parseSentences('Banken höjde räntan i dag.', 'sv'), 'sv')).not.toBeNull();
  });

  it("reads a grade off Flesch's table of ease", () => {
    expect([100, 90, 75, 65, 55, 40, 0].map(gradeForEase)).toEqual([4, 5, 6.5, 7.75, 9.75, 12.75, 18]);
  });
});
