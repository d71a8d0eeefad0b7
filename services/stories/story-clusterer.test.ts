import { describe, expect, it } from 'vitest';
import {
  defaultClusteringSettings,
  StoryClusterer,
  storyIdFor,
  type StoryDecision,
} from './story-clusterer.ts';
import type { StoryArticle } from './story-vector.ts';

const hour = 3_600_000;
const t0 = Date.parse('2026-03-02T08:00:00Z');

let n = 0;
function article(title: string, extra: Partial<StoryArticle> = {}): StoryArticle {
  n += 1;
  return {
    id: `a${n}`,
    sourceId: `s${n % 5}`,
    language: 'en',
    at: t0 + n * 60_000,
    title,
    lead: '',
    entities: [],
    keywords: [],
    ...extra,
  };
}

/** Decides and applies each article in turn; returns every event. */
function run(clusterer: StoryClusterer, articles: StoryArticle[]): StoryDecision[] {
  return articles.flatMap((a) => {
    const events = clusterer.decide(a);
    for (const e of events) clusterer.apply(e);
    return events;
  });
}

// Unrelated coverage first, so that the term statistics know which words are common.
const background = [
  'Stocks rise as investors weigh interest rate outlook',
  'Police appeal for witnesses after attempt to rob shop',
  'Football club confirms manager will stay next season',
  'Record attempt at the world longest sandwich ends early',
  'Weather warning issued as storms approach the coast',
  'Government sets out plans for new rail line north',
  'Film festival opens with premiere of long awaited drama',
  'Attempt to climb the mountain in winter called off',
].map((title) => article(title));

describe('StoryClusterer', () => {
  it('puts reports of one event from several outlets into one story, and another event into its own', () => {
    const c = new StoryClusterer();
    run(c, background);
    const fed = [
      article('Fed official says weak data caused by weather, should not slow taper', {
        entities: ['Federal Reserve', 'Charles Plosser'],
      }),
      article("Fed's Charles Plosser sees high bar for change in pace of tapering", {
        entities: ['Charles Plosser', 'Federal Reserve'],
      }),
      article('Fed risks falling behind the curve, Charles Plosser says', {
        entities: ['Charles Plosser'],
      }),
    ];
    const quake = article('Strong earthquake shakes northern Chile, tsunami warning lifted', {
      entities: ['Chile'],
    });
    run(c, [...fed, quake]);
    const stories = new Set(fed.map((a) => c.storyOf(a.id)));
    expect(stories.size).toBe(1);
    expect(c.storyOf(quake.id)).not.toBe(c.storyOf(fed[0]!.id));
    expect(c.storyOf(fed[0]!.id)).toBe(storyIdFor(fed[0]!.id));
  });

  it('puts reports of one event into one story on a new stream too, in whatever order they come', () => {
    // No background: on a new deployment the event's own words are in every article seen so far.
    const lead =
      'A fire destroyed a fish warehouse at Vardo harbour in Finnmark, northern Norway, on Tuesday ' +
      'morning. Police said nobody was hurt and the cause of the fire at the Vardo harbour was not yet known.';
    const reports = [
      'Fire destroys Vardo harbour warehouse, Norway police say',
      'Huge fire at Vardo harbour in Norway destroys fish warehouse',
      'Vardo harbour fire: warehouse lost, no injuries reported in Norway',
      'Firefighters battle blaze at Vardo harbour warehouse in northern Norway',
      'Vardo harbour warehouse burns down, Norway police investigate fire',
    ].map((title, i) => ({
      ...article(title, { lead, entities: ['Vardo', 'Norway'], keywords: ['fire', 'harbor', 'warehouse'] }),
      sourceId: `outlet${i}`,
    }));
    const mine = article('Kiruna mine reopens after tunnel inspection, Sweden operator says', {
      lead: 'The Kiruna iron ore mine in northern Sweden has restarted production after an inspection.',
      entities: ['Kiruna', 'Sweden'],
      keywords: ['mine', 'inspection'],
    });
    const orders = (items: StoryArticle[]): StoryArticle[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((first, i) =>
            orders(items.filter((_, j) => j !== i)).map((rest) => [first, ...rest]),
          );
    const split: string[] = [];
    for (const order of orders(reports)) {
      const c = new StoryClusterer();
      run(c, [...order, mine]);
      if (new Set(reports.map((a) => c.storyOf(a.id))).size !== 1)
        split.push(order.map((a) => a.sourceId).join(' '));
      expect(c.storyOf(mine.id)).not.toBe(c.storyOf(reports[0]!.id));
    }
    expect(split, 'orders that split the event').toEqual([]);
  });

  it('never links two events through one shared common word', () => {
    const c = new StoryClusterer();
    run(c, background);
    const dome = article('Millennium Dome sale attempt collapses', {
      lead: 'An attempt to sell the Millennium Dome has collapsed after the buyer withdrew.',
      entities: ['Millennium Dome'],
    });
    const spyware = article('Microsoft makes anti-spyware attempt', {
      lead: 'Microsoft has released a test version of its anti-spyware software in an attempt to fight spyware.',
      entities: ['Microsoft'],
    });
    run(c, [dome, spyware]);
    expect(c.storyOf(spyware.id)).not.toBe(c.storyOf(dome.id));
  });

  it('puts reports of one event in Japanese or Chinese into one story, by their pairs of characters', () => {
    const c = new StoryClusterer();
    const ja = (title: string, lead = '') => article(title, { language: 'ja', lead });
    const zh = (title: string, lead = '') => article(title, { language: 'zh', lead });
    run(c, [
      ja('東京株式市場、日経平均が反落　利益確定売り広がる'),
      ja('大雨で新幹線が運転見合わせ、東海道新幹線に遅れ'),
      ja('プロ野球、巨人が逆転勝ち　エースが完投'),
      zh('上海股市收跌，银行板块走弱'),
      zh('北京今夏最高气温创纪录'),
    ]);
    const resignation = [
      ja(
        '日本の首相が辞任を表明　支持率低迷で',
        '首相は記者会見で辞任を表明した。支持率の低迷が続いていた。',
      ),
      ja('首相、辞任を表明　後任は党総裁選で選出へ', '首相が辞任を表明し、党は総裁選の日程を決める。'),
      ja('首相が電撃辞任を表明、記者会見で説明', '首相は記者会見を開き、辞任する意向を表明した。'),
    ];
    const quake = ja('東京で震度4の地震、津波の心配なし', '気象庁によると、この地震による津波の心配はない。');
    const typhoon = [
      zh('台风“杜苏芮”登陆福建沿海', '今年第5号台风在福建沿海登陆，当地已转移数万名群众。'),
      zh('第5号台风登陆福建，数万人转移', '台风在福建沿海登陆，福建省已转移数万名群众。'),
    ];
    run(c, [...resignation, quake, ...typhoon]);
    expect(new Set(resignation.map((a) => c.storyOf(a.id))).size).toBe(1);
    expect(new Set(typhoon.map((a) => c.storyOf(a.id))).size).toBe(1);
    expect(c.storyOf(quake.id)).not.toBe(c.storyOf(resignation[0]!.id));
    expect(c.storyOf(typhoon[0]!.id)).not.toBe(c.storyOf(resignation[0]!.id));
  });

  // Reports of one event in inflected languages: one outlet writes "annulés", the next "annulé";
  // "Streik", "streiken", "Streiks"; "terremoto", "terremotos"; "Госдума", "Госдумой"; "sciopero",
  // "scioperi"; and around them the language's articles and prepositions ("la", "en", "del"), which
  // linked unrelated Spanish news into one story before they were stop words.
  it.each([
    {
      language: 'fr',
      background: [
        'Le prix du pain augmente dans les boulangeries',
        'Football : le PSG remporte le match face à Lyon',
        'Un nouveau musée ouvre ses portes à Marseille',
        'La météo annonce du soleil pour le week-end',
        'Les ventes de voitures électriques progressent en Europe',
      ],
      event: [
        [
          'Grève des contrôleurs aériens : des centaines de vols annulés',
          "La grève des contrôleurs aériens a entraîné l'annulation de centaines de vols.",
        ],
        [
          'Aéroports : les contrôleurs aériens en grève, le trafic perturbé',
          'Un vol sur deux est annulé à cause du mouvement social des aiguilleurs du ciel.',
        ],
        [
          'Les aiguilleurs du ciel grévistes paralysent le trafic aérien',
          'Les annulations se multiplient dans les aéroports français.',
        ],
      ],
      other: [
        'Crue de la Seine : Paris placé en vigilance orange',
        'Le niveau de la Seine continue de monter après des pluies abondantes.',
      ],
    },
    {
      language: 'de',
      background: [
        'Der Dax schließt mit leichten Gewinnen',
        'Bayern München gewinnt gegen Dortmund',
        'Neues Museum in Hamburg eröffnet',
        'Wetter: Am Wochenende wird es sonnig',
        'Autohersteller melden mehr Elektroautos',
      ],
      event: [
        [
          'Lokführer streiken: Bahn stellt Fernverkehr ein',
          'Die Gewerkschaft der Lokführer hat zum Streik aufgerufen, der Fernverkehr der Bahn steht still.',
        ],
        [
          'Streik der Lokführergewerkschaft legt Bahnverkehr lahm',
          'Wegen des Streiks der Lokführer fallen bundesweit Züge im Fernverkehr aus.',
        ],
        [
          'Bahnstreik: Fahrgäste müssen sich auf Zugausfälle einstellen',
          'Die streikenden Lokführer legen den Fernverkehr und viele Regionalzüge lahm.',
        ],
      ],
      other: [
        'Hochwasser an der Elbe: Dresden ruft Katastrophenalarm aus',
        'Die Pegelstände der Elbe steigen nach tagelangem Regen weiter.',
      ],
    },
    {
      language: 'es',
      background: [
        'El precio de la vivienda sube en Madrid',
        'El Real Madrid gana la liga',
        'Nuevo museo abre sus puertas en Sevilla',
        'Ola de calor en el sur del país',
        'Las ventas de coches eléctricos crecen en Europa',
      ],
      event: [
        [
          'Un terremoto de magnitud 6 sacude el sur de México',
          'El sismo se sintió en varias ciudades y provocó daños en edificios.',
        ],
        [
          'Fuerte sismo en México deja daños en edificios',
          'Los terremotos son frecuentes en la región; este fue de magnitud 6.',
        ],
        [
          'Terremotos en México: evacuan edificios tras el fuerte temblor',
          'Las autoridades evacuaron escuelas y oficinas después del sismo.',
        ],
      ],
      other: [
        'Incendio forestal obliga a desalojar varios pueblos en Valencia',
        'Los bomberos luchan contra el incendio que ha quemado cientos de hectáreas.',
      ],
    },
    {
      language: 'ru',
      background: [
        'Курс рубля снизился на бирже',
        'Спартак обыграл Зенит в Москве',
        'В Казани открылся новый музей',
        'Синоптики обещают тёплые выходные',
        'Продажи электромобилей растут в Европе',
      ],
      event: [
        [
          'Госдума приняла закон о выборах',
          'Депутаты Государственной думы приняли закон о проведении выборов.',
        ],
        ['Закон о выборах принят Госдумой', 'Новый порядок голосования на выборах вступит в силу осенью.'],
        [
          'Депутаты Госдумы изменили правила выборов',
          'Поправки к закону о выборах приняты в окончательном чтении.',
        ],
      ],
      other: [
        'Наводнение в Приморье: эвакуированы жители нескольких сёл',
        'Из-за сильных дождей реки вышли из берегов.',
      ],
    },
    {
      language: 'it',
      background: [
        'Il prezzo del pane aumenta a Roma',
        'La Juventus vince contro il Milan',
        'Un nuovo museo apre a Napoli',
        'Meteo: sole nel fine settimana',
        'Le vendite di auto elettriche crescono in Europa',
      ],
      event: [
        [
          'Sciopero dei treni: cancellate centinaia di corse',
          'I sindacati hanno proclamato uno sciopero nazionale dei ferrovieri.',
        ],
        [
          'Treni, venerdì sciopero nazionale dei ferrovieri',
          'Cancellazioni e ritardi per lo sciopero proclamato dai sindacati.',
        ],
        [
          'Scioperi nei trasporti: i ferrovieri incrociano le braccia',
          "Corse cancellate in tutta Italia per l'agitazione dei sindacati dei treni.",
        ],
      ],
      other: [
        'Alluvione in Emilia-Romagna: evacuate centinaia di famiglie',
        'Le piogge hanno fatto esondare diversi fiumi.',
      ],
    },
  ])('puts reports of one event in $language into one story, and nothing else with it', (set) => {
    const c = new StoryClusterer();
    const inLanguage = (title: string, lead = '') => article(title, { language: set.language, lead });
    const background = set.background.map((title) => inLanguage(title));
    run(c, background);
    const reports = set.event.map(([title, lead]) => inLanguage(title!, lead));
    const other = inLanguage(set.other[0]!, set.other[1]);
    run(c, [...reports, other]);
    expect(new Set(reports.map((a) => c.storyOf(a.id))).size).toBe(1);
    const unrelated = [...background, other, reports[0]!];
    expect(new Set(unrelated.map((a) => c.storyOf(a.id))).size, 'stories of unrelated news').toBe(
      unrelated.length,
    );
  });

  it('keeps languages apart', () => {
    const c = new StoryClusterer();
    run(c, background);
    const en = article('Volkswagen recalls diesel cars over emissions software', {
      entities: ['Volkswagen'],
    });
    const de = article('Volkswagen recalls diesel cars over emissions software', {
      entities: ['Volkswagen'],
      language: 'de',
    });
    run(c, [en, de]);
    expect(c.storyOf(de.id)).not.toBe(c.storyOf(en.id));
  });

  it('does not join a story whose latest article is older than the window, and closes it after inactivity', () => {
    const c = new StoryClusterer();
    run(c, background);
    const first = article('Volcano erupts on Iceland forcing flights to be grounded', {
      entities: ['Iceland'],
    });
    run(c, [first]);
    const late = article('Volcano erupts on Iceland forcing flights to be grounded', {
      entities: ['Iceland'],
      at: first.at + (defaultClusteringSettings.closeAfterHours + 2) * hour,
    });
    const events = run(c, [late]);
    expect(events.some((e) => e.type === 'closed' && e.storyId === c.storyOf(first.id))).toBe(true);
    expect(c.storyOf(late.id)).not.toBe(c.storyOf(first.id));
  });

  it('merges two stories that an article shows to be one, keeping the older id', () => {
    // Joining needs a close match; merging two stories that a new article matches both needs less.
    const c = new StoryClusterer({ ...defaultClusteringSettings, joinThreshold: 0.5, mergeThreshold: 0.1 });
    run(c, background);
    const a = article('Tesla recalls Model S cars over seat belt fault', { entities: ['Tesla', 'Model S'] });
    const b = article('Regulator opens inquiry into Model S seat belts', { entities: ['Model S', 'NHTSA'] });
    run(c, [a, b]);
    expect(c.storyOf(b.id), 'b opened a story of its own').toBe(storyIdFor(b.id));
    const bridge = article('Tesla recalls Model S over seat belt fault as regulator opens inquiry', {
      entities: ['Tesla', 'Model S', 'NHTSA'],
    });
    const events = run(c, [bridge]);
    expect(events.map((e) => e.type)).toEqual(['merged', 'joined']);
    expect(events[0]).toMatchObject({
      storyId: storyIdFor(b.id),
      into: storyIdFor(a.id),
      articleIds: [b.id],
    });
    for (const x of [a, b, bridge]) expect(c.storyOf(x.id)).toBe(storyIdFor(a.id));
  });

  it('ignores an article it has already assigned', () => {
    const c = new StoryClusterer();
    const a = article('Central bank holds rates');
    run(c, [a]);
    expect(c.decide(a)).toEqual([]);
  });

  it('rebuilt from its events, goes on exactly as the clusterer that decided them', () => {
    const settings = { ...defaultClusteringSettings, closeAfterHours: 1 };
    const stream = [
      ...background,
      ...Array.from({ length: 40 }, (_, i) =>
        article(
          [
            'Fed official says taper pace unchanged',
            'Chile earthquake tsunami warning lifted',
            'Apple unveils new iPhone with bigger screen',
            'Fed Plosser taper pace comments move markets',
          ][i % 4]!,
          { at: t0 + i * 20 * 60_000, entities: [['Fed'], ['Chile'], ['Apple'], ['Fed']][i % 4]! },
        ),
      ),
    ];
    const first = stream.slice(0, 30);
    const rest = stream.slice(30);

    const original = new StoryClusterer(settings);
    const log = run(original, first);
    const rebuilt = new StoryClusterer(settings);
    for (const e of log) rebuilt.apply(e);

    const continued = run(original, rest);
    expect(continued.length).toBeGreaterThan(0);
    expect(
      continued.some((e) => e.type === 'closed'),
      'the stream closes stories',
    ).toBe(true);
    expect(run(rebuilt, rest)).toEqual(continued);
    // And the same stream from scratch gives the same events.
    expect(run(new StoryClusterer(settings), stream)).toEqual([...log, ...continued]);
  });

  it('rebuilt from a log holding a join and a merge of stories it never opened, leaves them out and goes on', () => {
    const stream = [
      ...background,
      ...Array.from({ length: 12 }, (_, i) =>
        article(
          ['Chile earthquake tsunami warning lifted', 'Apple unveils new iPhone with bigger screen'][i % 2]!,
          {
            entities: [['Chile'], ['Apple']][i % 2]!,
          },
        ),
      ),
    ];
    const original = new StoryClusterer();
    const log = run(original, stream.slice(0, 14));
    const open = log.find((e) => e.type === 'opened')!;
    // What retention or another producer can leave on the topic: a story whose opening is gone.
    const foreign: StoryDecision[] = [
      { type: 'merged', storyId: 'merged-elsewhere', into: open.storyId, articleIds: [], at: t0 },
      { type: 'merged', storyId: open.storyId, into: open.storyId, articleIds: [], at: t0 },
      {
        ...open,
        type: 'joined',
        storyId: 'gone',
        articleId: 'z1',
        similarity: 0.9,
      },
    ];
    const rebuilt = new StoryClusterer();
    const applied = [...log.slice(0, 3), ...foreign, ...log.slice(3)].map((e) => rebuilt.apply(e));
    expect(applied.filter((ok) => !ok)).toHaveLength(foreign.length);
    expect(rebuilt.openStories).toBe(original.openStories);
    expect(rebuilt.storyOf('z1')).toBeUndefined();
    expect(run(rebuilt, stream.slice(14))).toEqual(run(original, stream.slice(14)));
  });

  describe('breaking news', () => {
    const report = (source: string, minutes: number, category = 'world') =>
      article('Magnitude 7.8 earthquake strikes off Sumatra, tsunami alert for Indonesia', {
        sourceId: source,
        at: t0 + 3 * hour + minutes * 60_000,
        entities: ['Sumatra', 'Indonesia'],
        category,
      });
    const decided = (c: StoryClusterer, articles: StoryArticle[]) =>
      run(c, articles).filter((e) => e.type === 'breaking');

    it('fires once, when the fourth independent source reports the story within the window', () => {
      const c = new StoryClusterer();
      run(c, background);
      const reports = ['s-a', 's-b', 's-c', 's-d', 's-e'].map((s, i) => report(s, i * 5));
      const out = run(c, reports.slice(0, 3));
      expect(out.filter((e) => e.type === 'breaking')).toEqual([]);
      const breaking = decided(c, reports.slice(3));
      expect(breaking).toHaveLength(1);
      expect(breaking[0]).toMatchObject({
        storyId: c.storyOf(reports[0]!.id),
        articleIds: reports.slice(0, 4).map((r) => r.id),
        at: reports[3]!.at,
      });
    });

    it('does not fire for one source however often it reports, nor for sources outside the window', () => {
      const c = new StoryClusterer();
      run(c, background);
      expect(
        decided(
          c,
          [0, 1, 2, 3, 4].map((i) => report('s-only', i)),
        ),
      ).toEqual([]);
      const slow = new StoryClusterer();
      run(slow, background);
      expect(
        decided(
          slow,
          ['s-a', 's-b', 's-c', 's-d', 's-e'].map((s, i) => report(s, i * 40)),
        ),
      ).toEqual([]);
    });

    it('asks more of a category whose stories usually have many sources', () => {
      const c = new StoryClusterer({ ...defaultClusteringSettings, closeAfterHours: 1 });
      run(c, background);
      // Stories of "busy" with 3 sources each in the window, closed by the passing time.
      for (let k = 0; k < 3; k += 1)
        run(
          c,
          ['x', 'y', 'z'].map((s, i) =>
            article(`Parliament votes on budget bill number ${k} amid protests`, {
              sourceId: `busy-${s}`,
              at: t0 + k * 3 * hour + i * 60_000,
              entities: [`Budget Bill ${k}`],
              category: 'busy',
            }),
          ),
        );
      run(c, [article('Unrelated later item about gardening shows', { at: t0 + 12 * hour })]);
      expect(c.breakingThreshold('busy')).toBe(9);
      expect(c.breakingThreshold('quiet')).toBe(4);
    });
  });
});
