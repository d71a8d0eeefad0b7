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
    [
      'nl',
      'sports',
      'Ajax wint van Feyenoord',
      'Ajax heeft de klassieker tegen Feyenoord gewonnen met 3-1. De spits scoorde twee doelpunten en de trainer prees zijn spelers. In de eredivisie staat Ajax nu bovenaan.',
    ],
    [
      'nl',
      'politics',
      'Kabinet presenteert begroting',
      'Het kabinet heeft de begroting voor volgend jaar gepresenteerd. De oppositie in de Tweede Kamer noemt de plannen onvoldoende, terwijl de coalitiepartijen de hervormingen verdedigen. Kamerleden debatteren volgende week over de voorstellen van de minister.',
    ],
    [
      'pl',
      'business',
      'Orlen zwiększa zyski',
      'Orlen zwiększył zysk netto o 12 procent w trzecim kwartale. Akcje spółki zdrożały na giełdzie w Warszawie, a analitycy spodziewają się wyższej dywidendy dla akcjonariuszy.',
    ],
    [
      'pl',
      'health',
      'Szpitale przygotowują się na grypę',
      'Szpitale w całym kraju przygotowują się na sezon grypy. Lekarze apelują o szczepienia, a liczba pacjentów z zakażeniami dróg oddechowych rośnie. Ministerstwo zdrowia zapowiada darmowe szczepionki dla seniorów.',
    ],
    [
      'tr',
      'sports',
      'Galatasaray derbiyi kazandı',
      'Galatasaray, Fenerbahçe ile oynadığı derbiyi 2-1 kazandı. Maçta iki gol atan forvet büyük alkış aldı, teknik direktör futbolcularını tebrik etti. Galatasaray Süper Lig’de liderliğini sürdürüyor.',
    ],
    [
      'tr',
      'business',
      'Merkez Bankası faizi sabit tuttu',
      'Merkez Bankası politika faizini sabit tuttu. Enflasyon beklentilerin üzerinde gelirken borsa güne düşüşle başladı ve dolar karşısında lira değer kaybetti. Ekonomistler büyüme verilerini bekliyor.',
    ],
    [
      'sv',
      'politics',
      'Regeringen presenterar budgeten',
      'Regeringen presenterade på onsdagen sin budget för nästa år. Oppositionen i riksdagen kritiserade förslagen, medan statsministern försvarade skattesänkningarna. Omröstningen i riksdagen sker i december.',
    ],
    [
      'sv',
      'environment',
      'Utsläppen ökar igen',
      'Sveriges utsläpp av växthusgaser ökade förra året, visar ny statistik. Miljöorganisationer varnar för att klimatmålen inte nås, och forskare kräver mer förnybar energi och minskad användning av fossila bränslen.',
    ],
    [
      'uk',
      'politics',
      'Рада ухвалила бюджет',
      'Верховна Рада ухвалила державний бюджет на наступний рік. За законопроєкт проголосували 260 депутатів, опозиція виступила проти. Документ направлять на підпис президенту.',
    ],
    [
      'uk',
      'world',
      'Нова хвиля атак',
      'Російські війська завдали нових ударів по енергетичній інфраструктурі. Солдати відбили атаки на сході, а дипломати закликали посилити санкції. Міністр закордонних справ обговорив ситуацію з партнерами в НАТО.',
    ],
    [
      'ar',
      'business',
      'ارتفاع أرباح أرامكو',
      'أعلنت شركة أرامكو ارتفاع أرباحها الفصلية بنسبة 12 في المئة، وصعدت أسهم الشركة في البورصة. وتوقع المحللون زيادة توزيعات الأرباح على المساهمين مع ارتفاع أسعار النفط.',
    ],
    [
      'ar',
      'sports',
      'الهلال يفوز بالدوري',
      'فاز نادي الهلال بلقب الدوري بعد انتصاره على النصر بثلاثة أهداف مقابل هدف. وأشاد المدرب بأداء اللاعبين، واحتفلت الجماهير بالبطولة في الملعب.',
    ],
    [
      'ar',
      'world',
      'قصف جديد',
      'قتل عشرات المدنيين في غارات جوية جديدة، فيما دعت الأمم المتحدة إلى وقف إطلاق النار. وقال دبلوماسيون إن المفاوضات بشأن الهدنة متعثرة، وفرضت دول غربية عقوبات جديدة.',
    ],
    [
      'ar',
      'politics',
      'الانتخابات البرلمانية',
      'دعا رئيس الوزراء إلى انتخابات برلمانية مبكرة بعد انهيار الائتلاف الحاكم. وقالت المعارضة إن الحكومة فشلت، فيما يستعد الناخبون للتصويت في الاستفتاء.',
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
    // Arabic, matched without its particles (الانتخابات as انتخابات): a notice is still nothing.
    expect(
      classify(
        'ar',
        'إعلان',
        'نشرت البلدية جدول الأعمال الذي يبدأ في مارس. وسيبقى الشارع مفتوحا أمام حركة المرور.',
      ),
    ).toBeNull();
    expect(translatedCategoryVocabulary.cs).toBeUndefined();
    expect(
      classify(
        'cs',
        'Sparta vyhrála',
        'Sparta vyhrála zápas 3:1. Útočník vstřelil dva góly a trenér chválil hráče.',
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
    // Swedish "lag" is a law and a team; Turkish "oyuncu" a player and an actor; Dutch "baan" an orbit and a job.
    expect(listed('sv', 'lag')).toBe(false);
    expect(listed('tr', 'oyuncu')).toBe(false);
    expect(listed('nl', 'baan')).toBe(false);
  });
});
