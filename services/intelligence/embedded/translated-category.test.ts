import { describe, expect, it } from 'vitest';
import { categoryVotes, classifyCategory } from './category.ts';
import { parseSentences } from './sentences.ts';
import { translatedCategoryVocabulary } from './translated-category-vocabulary.ts';

const classify = (language: string, title: string, text: string) =>
  classifyCategory(parseSentences(title, language), parseSentences(text, language), language);

describe('categories in other languages', () => {
  it.each([
    [
      'es',
      'politics',
      'El Congreso aprueba los presupuestos',
      'El Congreso de los Diputados aprobó este jueves los presupuestos generales con el apoyo de los socios del Gobierno. La oposición votó en contra y acusó al presidente de pactar con los independentistas. La votación salió adelante por 178 votos a favor.',
    ],
    [
      'es',
      'sports',
      'El Real Madrid gana la Liga',
      'El Real Madrid se proclamó campeón de Liga tras vencer 3-1 al Sevilla en el Bernabéu. Vinícius marcó dos goles y el entrenador elogió a sus jugadores. Los aficionados celebraron el título en Cibeles.',
    ],
    [
      'es',
      'health',
      'Sanidad amplía la vacunación',
      'El Ministerio de Sanidad ampliará la campaña de vacunación contra la gripe a los mayores de 60 años. Los hospitales registran un aumento de pacientes con infecciones respiratorias y los médicos piden reforzar la atención primaria.',
    ],
    [
      'fr',
      'world',
      'Cessez-le-feu à Gaza',
      "Un cessez-le-feu est entré en vigueur à Gaza après des semaines de guerre. Les Nations unies ont appelé à laisser passer l'aide humanitaire aux réfugiés, tandis que des soldats restent déployés à la frontière.",
    ],
    [
      'fr',
      'technology',
      'Une nouvelle IA',
      "La start-up française a présenté un nouveau modèle d'intelligence artificielle capable de générer du code. Les développeurs pourront l'utiliser dans leurs applications et le logiciel sera disponible sur smartphone.",
    ],
    [
      'de',
      'business',
      'Siemens steigert Gewinn',
      'Siemens hat im dritten Quartal deutlich mehr verdient. Der Gewinn stieg um 20 Prozent, der Umsatz legte zu. Die Aktie stieg an der Börse, Analysten erwarten eine höhere Dividende für die Aktionäre.',
    ],
    [
      'it',
      'environment',
      'Siccità record',
      'La siccità ha colpito il nord Italia con temperature record. Gli esperti avvertono che il cambiamento climatico e le emissioni di gas serra rendono questi eventi più frequenti, mentre i fiumi sono in secca.',
    ],
    [
      'pt',
      'sports',
      'Flamengo vence',
      'O Flamengo venceu o Palmeiras por 2 a 0 no Maracanã pelo Campeonato Brasileiro. O atacante marcou dois gols e o treinador elogiou a equipe. A torcida comemorou a vitória.',
    ],
    [
      'ru',
      'politics',
      'Госдума приняла закон',
      'Государственная дума приняла в третьем чтении законопроект о бюджете. За проголосовали 320 депутатов, оппозиция выступила против. Документ направят в Совет Федерации, а затем на подпись президенту.',
    ],
    [
      'ru',
      'business',
      'Сбербанк увеличил прибыль',
      'Сбербанк увеличил чистую прибыль на 15% по итогам квартала. Акции банка выросли на бирже, аналитики ожидают рекордных дивидендов для акционеров.',
    ],
  ])('%s: %s', (language, category, title, text) => {
    expect(classify(language, title, text)).toBe(category);
  });

  it('finds a word in any of its forms, by its stem', () => {
    // "выборов" (genitive plural) is listed as "выборы"; "elecciones" covers "elección".
    const votes = (language: string, text: string) =>
      categoryVotes([], parseSentences(text, language), language).votes.politics ?? 0;
    expect(votes('ru', 'Итоги выборов.')).toBeGreaterThan(0);
    expect(votes('es', 'Tras la elección.')).toBeGreaterThan(0);
  });

  it('says nothing of a notice, or of a language without a vocabulary', () => {
    expect(
      classify(
        'es',
        'Nota',
        'El ayuntamiento publicó el calendario de las obras, que empezarán en marzo. La calle permanecerá abierta al tráfico durante los trabajos.',
      ),
    ).toBeNull();
    expect(translatedCategoryVocabulary.nl).toBeUndefined();
    expect(
      classify(
        'nl',
        'Ajax wint',
        'Ajax heeft de wedstrijd gewonnen met 3-1. De spits scoorde twee doelpunten.',
      ),
    ).toBeNull();
  });

  it('leaves out of every category a word that is two things in its language', () => {
    // Spanish "partido" is a party and a match; French "but" a goal and an aim.
    const listed = (language: string, word: string) =>
      Object.values(translatedCategoryVocabulary[language]!).some(
        (v) => v.strong.includes(word) || v.words.includes(word),
      );
    expect(listed('es', 'partido')).toBe(false);
    expect(listed('fr', 'but')).toBe(false);
  });
});
