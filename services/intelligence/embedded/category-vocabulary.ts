// What each category's news talks about: seed words written from general knowledge of news desks
// (a sports page talks about matches, goals and coaches; a business page about shares, profits and
// markets). Deliberately not learned from any labelled corpus, so the benchmark that measures the
// classifier on the BBC sample is an honest test. Words are plain English; the classifier stems
// them, so "election" also covers "elections" and "elected".
//
// `strong` words all but decide the category on their own; `words` lean towards it. "general" has
// no vocabulary: it is what a feed says, not something the text shows.
import type { Category } from '../../runtime/categories.ts';

export interface CategoryVocabulary {
  strong: string[];
  words: string[];
}

export const categoryVocabulary: Partial<Record<Category, CategoryVocabulary>> = {
  politics: {
    strong: list(`
      election, parliament, parliamentary, mp, mps, minister, senator, congressman, politician,
      political, politics, labour, tory, tories, conservatives, democrats, republicans, liberal,
      referendum, legislation, cabinet, manifesto, downing, whitehall, westminster, commons, lords,
      chancellor, campaign, voters, ballot, constituency, opposition, party
    `),
    words: list(`
      government, vote, votes, voting, policy, policies, bill, law, laws, reform, debate, leader,
      leadership, prime, secretary, spokesman, council, senate, congress, president, presidential,
      poll, polls, mandate, coalition, public, tax, taxes, spending, budget, immigration, asylum,
      pledge, promise, critics, inquiry, committee, lobby, lawmakers, democracy, govern, office,
      home, shadow, backbench, reshuffle, speech, watchdog, rights, citizens, voter, nhs, schools,
      police
    `),
  },
  business: {
    strong: list(`
      shares, shareholders, profit, profits, revenue, revenues, earnings, economy, economic,
      economist, economists, inflation, investors, stock, stocks, market, markets, takeover, merger,
      acquisition, bank, banks, firm, firms, company, companies, sales, dividend, quarter, quarterly,
      interest, rates, dollar, euro, currency, exports, imports, trade, deficit, growth, gdp, retail,
      retailer, oil, prices
    `),
    words: list(`
      business, businesses, industry, industrial, corporate, chief, executive, customers, consumer,
      consumers, demand, supply, costs, cost, price, debt, loan, loans, finance, financial, fund,
      funds, investment, invest, billion, million, analysts, forecast, deal, bid, offer, jobs,
      unemployment, workers, factory, manufacturing, output, sector, exchange, bankruptcy, buyout,
      brand, airline, pension, pensions, mortgage, housing, fiscal, monetary, recession, index,
      bonds, yield, barrel, commodity, turnover, stake, subsidiary, regulator, accounts, losses
    `),
  },
  technology: {
    strong: list(`
      technology, technologies, software, hardware, computer, computers, computing, internet, online,
      web, website, websites, digital, broadband, mobile, phones, smartphone, gadget, gadgets,
      microsoft, google, apple, linux, windows, browser, virus, spam, hackers, hacker, cyber,
      spyware, malware, download, downloads, games, gaming, console, consoles, chip, chips,
      processor, wireless, wi-fi, bluetooth, e-mail, email, users
    `),
    words: list(`
      tech, device, devices, network, networks, data, servers, server, system, systems, program,
      programs, programmers, code, developers, app, apps, screen, laptop, pc, pcs, machine, machines,
      robot, robots, electronics, electronic, camera, cameras, players, ipod, mp3, search, engine,
      blog, blogs, file, files, sharing, security, patch, patents, patent, telecoms, innovation,
      silicon, storage, memory, bandwidth, digital, video, tv, hi-fi, satellite, pirate, piracy, net,
      firewall, encryption, artificial, intelligence
    `),
  },
  sports: {
    strong: list(`
      match, matches, goal, goals, football, rugby, cricket, tennis, golf, athletics, olympic,
      olympics, championship, championships, tournament, league, cup, coach, striker, midfielder,
      defender, goalkeeper, squad, scored, score, victory, defeat, medal, medals, sprint, sprinter,
      marathon, race, racing, boxing, referee, stadium, fixture, semi-final, final, quarter-final,
      season, club, clubs, wicket, innings, penalty, world cup
    `),
    words: list(`
      team, teams, player, players, win, won, wins, winning, lost, beat, champion, champions, title,
      game, games, play, played, playing, injury, injured, fitness, training, manager, captain, fans,
      supporters, sport, sports, athlete, athletes, record, round, half, minute, minutes, points,
      draw, winger, forward, ball, pitch, court, track, indoor, world, grand, slam, open, ranked,
      seed, doping, drugs, transfer, signed, contract, international, debut, cap, caps, nations,
      test, trophy
    `),
  },
  entertainment: {
    strong: list(`
      film, films, movie, movies, actor, actress, actors, director, oscar, oscars, bafta, grammy,
      music, album, albums, singer, band, bands, song, songs, chart, charts, concert, tour, festival,
      theatre, musical, comedy, drama, hollywood, celebrity, star, stars, box office, novel, author,
      book, books, television, sitcom, soap, series, episode, rock, pop, rapper
    `),
    words: list(`
      award, awards, nominated, nomination, nominations, prize, ceremony, show, shows, stage,
      audience, audiences, viewers, screen, role, roles, starring, cast, studio, studios, producer,
      released, release, premiere, cinema, cinemas, dvd, record, label, singles, single, hit, fans,
      artist, artists, art, gallery, exhibition, writer, literary, fiction, poet, poetry, dance,
      opera, orchestra, tv, channel, bbc, broadcast, radio, entertainment, performer, performance,
      fame, critics, reality, presenter, script, sequel, animated, documentary, play, west end,
      broadway, musician
    `),
  },
  science: {
    strong: list(`
      scientists, scientist, scientific, research, researchers, study, experiment, laboratory,
      physics, chemistry, biology, astronomers, space, nasa, telescope, planet, planets, galaxy,
      asteroid, orbit, spacecraft, species, fossil, dinosaur, genetic, genome, dna, evolution
    `),
    words: list(`
      discovery, journal, findings, theory, data, university, professor, particle, quantum, mars,
      moon, solar, mission, probe, cells, molecule, mathematics, archaeologists, ancient
    `),
  },
  health: {
    strong: list(`
      health, hospital, hospitals, patients, patient, doctors, doctor, nurses, disease, diseases,
      cancer, virus, vaccine, vaccination, medical, medicine, drug, treatment, surgery, infection,
      epidemic, pandemic, obesity, diabetes, nhs, mental, clinic
    `),
    words: list(`
      care, symptoms, diet, heart, blood, risk, risks, illness, flu, therapy, pharmaceutical,
      prescription, healthy, smoking, alcohol, died, deaths, gp, gps, births, pregnancy
    `),
  },
  environment: {
    strong: list(`
      climate, environment, environmental, emissions, carbon, greenhouse, pollution, warming,
      wildlife, conservation, renewable, biodiversity, deforestation, recycling, fossil fuels
    `),
    words: list(`
      energy, solar, wind, forest, forests, species, extinction, drought, flood, floods, flooding,
      ocean, oceans, weather, temperatures, green, waste, sustainable, ecosystem, habitat, ice
    `),
  },
  world: {
    strong: list(`
      war, troops, military, soldiers, refugees, embassy, diplomat, diplomats, diplomatic, ceasefire,
      insurgents, rebels, militants, sanctions, united nations, foreign, invasion, conflict, peace,
      humanitarian, border
    `),
    words: list(`
      country, countries, international, nations, regime, attack, attacks, killed, bomb, violence,
      protest, protesters, crisis, aid, ambassador, summit, treaty, nuclear, president, capital,
      tsunami, earthquake, hostages
    `),
  },
};

/** Comma-separated words and phrases, one vocabulary per template, as they read best in this file. */
function list(text: string): string[] {
  return text
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w.length > 0);
}
