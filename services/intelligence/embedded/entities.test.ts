import { describe, expect, it } from 'vitest';
import { extractEntities, maxEntities } from './entities.ts';
import { layoffsArticle } from '../../../test/support/sample-articles.ts';
import { parseSentences } from './sentences.ts';

const entities = (text: string, title = '') => extractEntities(parseSentences(title), parseSentences(text));
const named = (text: string, name: string) => entities(text).find((e) => e.name === name);
/** Each entity's type by its name. */
const types = (text: string) => Object.fromEntries(entities(text).map((e) => [e.name, e.type]));
/** Each entity's type and mentions by its name. */
const counted = (text: string) =>
  Object.fromEntries(entities(text).map((e) => [e.name, [e.type, e.mentions]]));

describe('extractEntities', () => {
  // Not a speed target (the benchmarks hold those): a guard against the quadratic run that made a
  // 91 KB text of initials take the analysis 30 s. It takes well under a second now, minutes before.
  it('reads a text that is one long run of capitalised abbreviations in time linear in its length', () => {
    const found = entities(`${'Mr. A. B. C. '.repeat(12_000)}Angela Merkel visited Paris.`);
    expect(found.length).toBeGreaterThan(0);
  }, 20_000);

  it('finds people, organisations and places with their types', () => {
    const found = entities(layoffsArticle.text, layoffsArticle.title);
    const byName = new Map(found.map((e) => [e.name, e.type]));
    expect(byName.get('Acme Corp')).toBe('organization');
    expect(byName.get('Maria Lopez')).toBe('person');
    expect(byName.get('Northbridge Bank')).toBe('organization');
    expect(byName.get('Germany')).toBe('place');
    expect(byName.get('New York')).toBe('place');
  });

  it('merges "Mr Blair", "Tony Blair" and "Blair" into one person', () => {
    const text = [
      'Prime Minister Tony Blair met union leaders on Monday.',
      'Mr Blair said the talks were useful.',
      'Critics said Blair had promised too much.',
    ].join('\n');
    const blairs = entities(text).filter((e) => e.name.includes('Blair'));
    expect(blairs).toEqual([{ name: 'Tony Blair', type: 'person', salience: 1, mentions: 3 }]);
  });

  it('takes job titles and honorifics off the name', () => {
    const text = 'Health Secretary John Reid visited the hospital.\nDr Jane Hart said staff were ready.';
    expect(named(text, 'John Reid')?.type).toBe('person');
    expect(named(text, 'Jane Hart')?.type).toBe('person');
    expect(entities(text).some((e) => /Secretary|Dr/.test(e.name))).toBe(false);
  });

  it('keeps the particles of family names, and joins the family name written alone to the full one', () => {
    const text = [
      'European Commission President Ursula von der Leyen met Mohammed bin Salman in Riyadh.',
      'Von der Leyen said talks with Luis de la Fuente and Alexander Van der Bellen went well.',
      'Critics of von der Leyen disagreed, as did De Beers and Marine Le Pen.',
    ].join('\n');
    const found = entities(text);
    expect(found.find((e) => e.name === 'Ursula von der Leyen')).toMatchObject({
      type: 'person',
      mentions: 3,
    });
    for (const name of ['Mohammed bin Salman', 'Luis de la Fuente', 'Alexander Van der Bellen'])
      expect(named(text, name)?.type).toBe('person');
    // A capitalised particle opens a name: not "Beers".
    expect(named(text, 'De Beers')).toBeDefined();
    expect(found.some((e) => /^(?:Leyen|Von der Leyen|Beers|Bellen)$/.test(e.name))).toBe(false);
  });

  it('keeps what a job title is of as a name of its own', () => {
    const text = [
      'European Commission President Ursula von der Leyen spoke first.',
      'Apple CEO Tim Cook met US Defense Secretary Pete Hegseth.',
      'Nato Secretary General Mark Rutte and UN Secretary-General Antonio Guterres followed.',
      'Health Secretary Wes Streeting and French President Emmanuel Macron were absent.',
    ].join('\n');
    const byName = types(text);
    expect(byName).toEqual({
      'European Commission': 'organization',
      'Ursula von der Leyen': 'person',
      Apple: 'organization',
      'Tim Cook': 'person',
      US: 'place',
      'Pete Hegseth': 'person',
      Nato: 'organization',
      'Mark Rutte': 'person',
      UN: 'organization',
      'Antonio Guterres': 'person',
      'Wes Streeting': 'person',
      'Emmanuel Macron': 'person',
    });
  });

  it('takes a lowercase title or description before a name, and a family name written alone, for a person', () => {
    const text = [
      "Microsoft's chief executive Satya Nadella spoke, as did Hamas leader Yahya Sinwar.",
      'Shares fell after Elon Musk sold stock. Later Musk said he would buy more.',
      'The fans cheered striker Kylian Mbappe.',
    ].join('\n');
    const byName = types(text);
    expect(byName).toMatchObject({
      'Satya Nadella': 'person',
      'Yahya Sinwar': 'person',
      'Elon Musk': 'person',
      'Kylian Mbappe': 'person',
    });
    // An adverb opening the sentence is no part of the name after it.
    expect(
      entities('Meanwhile Apple raised prices. Earlier Tim Cook had warned.').map((e) => e.name),
    ).toEqual(['Apple', 'Tim Cook']);
    // Nor does a thing's name with an article before it, or a virus's letter.
    expect(
      named('Sales at the Millennium Dome fell. They will sell the Dome.', 'Millennium Dome')?.type,
    ).toBe('other');
    expect(named('The Zafi D virus spread. D was worse.', 'Zafi D')?.type).not.toBe('person');
    // An organisation's last word written alone makes no person of it.
    expect(named('Manchester United lost. Fans of United were angry.', 'Manchester United')?.type).toBe(
      'organization',
    );
  });

  it('takes a person apart from the organisation or place "of" which they speak', () => {
    const text = [
      '"It is a risk," said Paul Ashworth of Capital Economics.',
      "Jim O'Neill of Goldman Sachs agreed with Mark Carney of the Bank of England.",
      'Angela Merkel of Germany met the Duke of Edinburgh at the University of Oxford.',
    ].join('\n');
    expect(types(text)).toEqual({
      'Paul Ashworth': 'person',
      'Capital Economics': 'organization',
      "Jim O'Neill": 'person',
      'Goldman Sachs': 'organization',
      'Mark Carney': 'person',
      'Bank of England': 'organization',
      'Angela Merkel': 'person',
      Germany: 'place',
      'Duke of Edinburgh': 'other',
      'University of Oxford': 'organization',
    });
  });

  it('knows hyphenated names, police ranks, and countries and cities the lexicon takes for people', () => {
    const text = [
      'Syrian President Bashar al-Assad fled to Jordan. Assad had ruled since 2000.',
      'Frank-Walter Steinmeier flew to Chad and met Jean-Michel Jarre.',
      'Police in New South Wales arrested a man in Sydney, said Detective Inspector Jane Smith.',
    ].join('\n');
    expect(counted(text)).toEqual({
      'Bashar al-Assad': ['person', 2],
      Jordan: ['place', 1],
      'Frank-Walter Steinmeier': ['person', 1],
      Chad: ['place', 1],
      'Jean-Michel Jarre': ['person', 1],
      'New South Wales': ['place', 1],
      Sydney: ['place', 1],
      'Jane Smith': ['person', 1],
    });
  });

  it("takes a name for a person's by the pronoun, the 'who' or the job title that follows it", () => {
    const text = [
      'Pep Guardiola praised his side. Erling Haaland said he was tired.',
      'Kerry Packer, the media tycoon, died. Giorgia Meloni, the Italian prime minister, spoke.',
      "Rod Eddington, BA's chief executive, was pleased, said Mikko Hypponen, who heads research.",
      // Not people: a company's trade, a title of someone else's, and the person a company spoke to.
      'Pershing Square, the activist investor, bought shares. Saudi Aramco, the oil producer, agreed.',
      "Downing Street, the prime minister's office, said so. Acme Widgets told her to leave.",
      'Manchester United, whose manager was sacked, lost.',
    ].join('\n');
    expect(types(text)).toEqual({
      'Pep Guardiola': 'person',
      'Erling Haaland': 'person',
      'Kerry Packer': 'person',
      'Giorgia Meloni': 'person',
      'Rod Eddington': 'person',
      'Mikko Hypponen': 'person',
      'Pershing Square': 'other',
      'Saudi Aramco': 'other',
      'Downing Street': 'place',
      'Acme Widgets': 'other',
      'Manchester United': 'organization',
    });
  });

  it('takes off more titles, abbreviated ranks, and a first name that is a word too', () => {
    const text = [
      'Solicitor General Elizabeth Prelogar defended the law. NASA Administrator Bill Nelson agreed.',
      'Lt. Col. John Smith and Cllr Jane Doe spoke. Taylor Swift thanked her fans.',
    ].join('\n');
    expect(types(text)).toEqual({
      'Elizabeth Prelogar': 'person',
      NASA: 'organization',
      'Bill Nelson': 'person',
      'John Smith': 'person',
      'Jane Doe': 'person',
      'Taylor Swift': 'person',
    });
  });

  it("takes a name for a company's by its shares or its analysts, not by a sector's or a verb", () => {
    const text = [
      'Tesla is recalling 2 million cars. Tesla shares fell 1.5% in New York.',
      'Shares of Spotify rose 4%. Analysts at Morgan Stanley raised their target.',
      'Allied Domecq shares rose, while Pernod shares slipped. Pernod Ricard declined to comment.',
      // Not companies: a sector named once, and "shares" the verb.
      'Tech shares slumped. Inflation shares the blame. Inflation rose.',
    ].join('\n');
    expect(counted(text)).toEqual({
      Tesla: ['organization', 2],
      'New York': ['place', 1],
      Spotify: ['organization', 1],
      'Morgan Stanley': ['organization', 1],
      'Allied Domecq': ['organization', 1],
      // "Pernod" joins the longer name it opens, which its shares make a company's.
      'Pernod Ricard': ['organization', 2],
    });
  });

  it('shows a name as the text writes it, hyphens and web domain included, the headline counting as a use', () => {
    const text = [
      'Rolls-Royce said on Monday that engine sales rose. Rolls Royce shares fell.',
      'Frank-Walter Steinmeier visited Paris. Steinmeier said the talks went well.',
      'Shares of Amazon.com rose. Amazon.com said sales grew.',
    ].join('\n');
    const found = entities(text, 'Rolls-Royce and Amazon.com lift the FTSE');
    expect(Object.fromEntries(found.map((e) => [e.name, e.mentions]))).toEqual({
      // Two of its three mentions write the hyphen: the body's first and the headline.
      'Rolls-Royce': 3,
      'Frank-Walter Steinmeier': 2,
      'Amazon.com': 3,
      Paris: 1,
      // Named in the headline alone.
      FTSE: 1,
    });
  });

  it('takes the names a headline writes that the body does not, in sentence case and in title case', () => {
    const named = (title: string, text: string, language: string | null = null) =>
      extractEntities(parseSentences(title, language), parseSentences(text, language), language).map(
        (e) => `${e.name} (${e.type}, ${e.mentions})`,
      );
    expect(
      named(
        'Emmanuel Macron visits Berlin for talks with Olaf Scholz',
        'The two leaders discussed energy policy and defence.',
      ),
    ).toEqual(['Emmanuel Macron (person, 1)', 'Berlin (place, 1)', 'Olaf Scholz (person, 1)']);
    // Title case: only what the lexicon knows as a name, and the unknown word that goes on with it.
    expect(named('Microsoft Agrees to Buy Activision Blizzard', 'The deal is worth $69bn.')).toEqual([
      'Microsoft (organization, 1)',
      'Activision Blizzard (organization, 1)',
    ]);
    expect(named('Fed Holds Rates Steady as Inflation Cools', 'Borrowing costs stay unchanged.')).toEqual([
      'Fed (organization, 1)',
    ]);
    expect(named('Breaking: New Rules For Drivers Start Today', 'Motorists face changes.')).toEqual([]);
    expect(named('STORM HITS COAST', 'Thousands lost power.')).toEqual([]);
    // A German headline capitalises its nouns: they are no names.
    expect(
      named(
        'Bundesregierung beschließt neues Klimapaket mit Olaf Scholz',
        'Die Regierung hat entschieden.',
        'de',
      ),
    ).toEqual(['Olaf Scholz (person, 1)']);
    // The body's short form joins the headline's full name.
    expect(named('Talks with Olaf Scholz end', 'Later, Mr Scholz left early.')).toEqual([
      'Olaf Scholz (person, 2)',
    ]);
    // A headline's shorthand around a name the body writes is not a name that takes the body's in.
    const qantas = named(
      'Shares fall as Qantas A380 engine failure grounds superjumbos',
      'Shares fell after Qantas grounded its fleet. The airline said Qantas engineers would check every engine.',
    );
    expect(qantas).toEqual(['Qantas (other, 3)']);
    expect(qantas.some((e) => e.startsWith('Qantas A380'))).toBe(false);
    // The headline's one use of the name is counted once, not again for its short form.
    expect(
      named('Talks with Olaf Scholz end', 'The chancellor Olaf Scholz arrived. Later, Mr Scholz left early.'),
    ).toEqual(['Olaf Scholz (person, 3)']);
  });

  it("reads legal forms and web domains as a company's, and a title word after a first name as a family name", () => {
    const text = [
      'Apple Inc. rose 3%. Apple said sales grew, and Zorbatek AG agreed.',
      'The FTC sued Amazon.com Inc. on Tuesday.',
      'He quoted Martin Luther King Jr. and Stephen King in his speech.',
    ].join('\n');
    expect(counted(text)).toEqual({
      'Apple Inc': ['organization', 2],
      'Zorbatek AG': ['organization', 1],
      FTC: ['organization', 1],
      'Amazon.com Inc': ['organization', 1],
      'Martin Luther King Jr': ['person', 1],
      'Stephen King': ['person', 1],
    });
  });

  it('keeps a known name written with "and" whole, and joins no other names across "and"', () => {
    expect(
      types(
        [
          'Officials at the Centers for Disease Control and Prevention said cases rose.',
          'The US Food and Drug Administration approved the drug.',
          'The Department for Environment, Food and Rural Affairs said farmers would be paid.',
          'The Health and Safety Executive opened an inquiry.',
          'Ministers from Bosnia and Herzegovina met officials from Trinidad and Tobago in London.',
        ].join('\n'),
      ),
    ).toEqual({
      'Centers for Disease Control and Prevention': 'organization',
      'US Food and Drug Administration': 'organization',
      'Department for Environment, Food and Rural Affairs': 'organization',
      'Health and Safety Executive': 'organization',
      'Bosnia and Herzegovina': 'place',
      'Trinidad and Tobago': 'place',
      London: 'place',
    });
    // At a sentence's start too, where a capitalised word may be no name.
    expect(types('Marks and Spencer shares fell on Tuesday after the retailer warned on profits.')).toEqual({
      'Marks and Spencer': 'organization',
    });
    expect(
      types('President Joe Biden and Donald Trump met. The Bank of England and Barclays Bank disagreed.'),
    ).toEqual({
      'Joe Biden': 'person',
      'Donald Trump': 'person',
      'Bank of England': 'organization',
      'Barclays Bank': 'organization',
    });
  });

  it('knows "Sea of ..." and "Republic of ..." for places, but not "State of the Union"', () => {
    const text =
      'Tankers crossed the Strait of Hormuz, the Sea of Japan and the Gulf of Mexico. Aid reached the ' +
      'Democratic Republic of Congo. The State of the Union was delayed.';
    const byName = types(text);
    expect(byName).toMatchObject({
      'Strait of Hormuz': 'place',
      'Sea of Japan': 'place',
      'Gulf of Mexico': 'place',
      'Democratic Republic of Congo': 'place',
    });
    expect(byName['State of the Union']).not.toBe('place');
  });

  it('treats "TimeWarner" and "Time Warner" as one name and counts possessives', () => {
    const text =
      "Time Warner's profits rose.\nAnalysts said TimeWarner did well.\nTimeWarner will report again in May.";
    const found = entities(text).filter((e) => e.name.replace(' ', '') === 'TimeWarner');
    expect(found).toHaveLength(1);
    expect(found[0]!.mentions).toBe(3);
  });

  it('does not take a capitalised sentence opener for a name', () => {
    const text = 'Profits rose at the firm.\nHowever, profits may fall.\nAnalysts were surprised.';
    expect(entities(text)).toEqual([]);
  });

  it('counts at least one mention of every name, one the headline writes inside a longer word too', () => {
    const found = extractEntities(
      parseSentences('GPX-Dateien in Google Maps importieren', 'de'),
      parseSentences('So geht es mit wenigen Klicks.', 'de'),
      'de',
    );
    expect(found.find((e) => e.name === 'GPX')?.mentions).toBe(1);
    expect(found.every((e) => e.mentions >= 1)).toBe(true);
  });

  it('lets the headline add weight to names in the body but not new names', () => {
    const text = 'Acme Corp will cut jobs.\nThe plan worried Poland.';
    const found = entities(text, 'Acme Corp To Cut Jobs In Big Restructuring');
    expect(found[0]).toMatchObject({ name: 'Acme Corp', mentions: 2, salience: 1 });
    expect(found.some((e) => e.name.includes('Restructuring'))).toBe(false);
  });

  it('reports the most salient first, salience in [0, 1], at most the cap', () => {
    const places = Array.from(
      { length: 30 },
      (_, i) => `Visitors came from Town${String.fromCharCode(65 + (i % 26))}${i}ville Corp.`,
    );
    const found = entities(places.join('\n'));
    expect(found.length).toBeLessThanOrEqual(maxEntities);
    for (const e of found) {
      expect(e.salience).toBeGreaterThanOrEqual(0);
      expect(e.salience).toBeLessThanOrEqual(1);
    }
    const layoffs = entities(layoffsArticle.text, layoffsArticle.title);
    expect(layoffs[0]!.name).toBe('Acme Corp');
    for (let i = 1; i < layoffs.length; i += 1)
      expect(layoffs[i]!.salience).toBeLessThanOrEqual(layoffs[i - 1]!.salience);
  });
});
