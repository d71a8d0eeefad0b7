// What each category's news talks about in Spanish, French, German, Italian, Portuguese, Russian, Dutch,
// Polish, Turkish, Swedish, Ukrainian and Arabic:
// the English vocabulary's seed words (category-vocabulary.ts) written again as those languages' news
// desks write them, not translated word for word. Words that are two things in a language are left
// out of both (Spanish "partido", a party and a match; French "but", a goal and an aim; German "Preis",
// a price and a prize, kept in business only). The classifier stems them with the language's Snowball
// stemmer (word-stems.ts), so one form of a word covers its others ("elecciones", "выборов").
import type { Category } from '../../runtime/categories.ts';
import type { CategoryVocabulary } from './category-vocabulary.ts';

type Vocabularies = Partial<Record<Category, CategoryVocabulary>>;

/** "strong | words" for each category, comma-separated: as they read best in this file. */
function vocabularies(table: Partial<Record<Category, string>>): Vocabularies {
  const list = (text: string) =>
    text
      .split(',')
      .map((w) => w.trim().replace(/\s+/gu, ' ').toLowerCase())
      .filter((w) => w.length > 0);
  return Object.fromEntries(
    Object.entries(table).map(([category, text]) => {
      const [strong = '', words = ''] = text.split('|');
      return [category, { strong: list(strong), words: list(words) }];
    }),
  );
}

export const translatedCategoryVocabulary: Record<string, Vocabularies> = {
  es: vocabularies({
    politics: `elecciones, electoral, parlamento, parlamentario, diputado, diputados, senador, senado,
      ministro, ministra, político, política, políticos, gobierno, oposición, congreso, votación,
      votantes, campaña electoral, referéndum, legislatura, coalición, investidura, escaños, moción de censura
      | ley, leyes, reforma, debate, presidente, líder, alcalde, ayuntamiento, presupuestos, impuestos,
      voto, votos, encuesta, sondeo, mayoría, constitución, decreto, comisión, portavoz, ciudadanos,
      democracia, socialista, conservador, izquierda, derecha`,
    business: `empresa, empresas, acciones, accionistas, beneficios, ingresos, facturación, economía,
      económico, económica, inflación, inversores, bolsa, mercado, mercados, banco, bancos, ventas,
      dividendo, trimestre, trimestral, tipos de interés, euro, dólar, exportaciones, importaciones,
      comercio, déficit, crecimiento, pib, petróleo, precios
      | negocio, negocios, industria, industrial, consumidores, demanda, costes, deuda, préstamo,
      financiero, financiera, inversión, millones, analistas, acuerdo, oferta, empleo, empleos, paro,
      desempleo, trabajadores, fábrica, fábricas, producción, sector, quiebra, marca, pensiones,
      hipoteca, vivienda, fiscal, recesión, cotización, fusión, adquisición`,
    technology: `tecnología, tecnológica, tecnológico, software, ordenador, ordenadores, internet, digital,
      móvil, móviles, teléfono, smartphone, aplicación, aplicaciones, microsoft, google, apple,
      navegador, hackers, ciberataque, ciberseguridad, videojuegos, consola, chip, chips, procesador,
      inteligencia artificial, algoritmo, usuarios, redes sociales
      | dispositivo, dispositivos, red, datos, servidor, sistema, programa, código, desarrolladores, app,
      pantalla, portátil, robot, robots, electrónica, cámara, buscador, plataforma, seguridad, patente,
      telecomunicaciones, innovación, startup, nube, batería`,
    sports: `fútbol, baloncesto, tenis, golf, ciclismo, atletismo, olímpico, olímpicos, campeonato,
      torneo, liga, copa, entrenador, delantero, portero, gol, goles, selección, plantilla, estadio,
      árbitro, penalti, final, semifinal, temporada, club, medalla, mundial, jugador, jugadores,
      futbolista
      | equipo, equipos, ganar, ganó, victoria, derrota, empate, campeón, campeones, título, lesión,
      entrenamiento, aficionados, afición, deportivo, deporte, deportes, atleta, récord, jornada,
      puntos, clasificación, fichaje, contrato, debut, trofeo, minuto, balón`,
    entertainment: `película, películas, cine, actor, actriz, actores, cineasta, óscar, oscar, goya,
      grammy, música, álbum, disco, cantante, banda, canción, canciones, concierto, gira, festival,
      teatro, musical, comedia, hollywood, famoso, estrella, estreno, novela, escritor, libro,
      televisión, serie, episodio, rock, pop, rapero
      | premio, premios, nominado, nominación, gala, espectáculo, escenario, público, espectadores,
      papel, protagonista, reparto, productor, taquilla, artista, artistas, arte, galería, exposición,
      literatura, poeta, poesía, danza, ópera, orquesta, canal, radio, documental, humor`,
    science: `científicos, científico, científica, investigación, investigadores, experimento,
      laboratorio, física, química, biología, astrónomos, espacio, nasa, telescopio, planeta, planetas,
      galaxia, asteroide, órbita, nave espacial, especies, fósil, dinosaurio, genética, genoma, adn,
      evolución
      | descubrimiento, revista, hallazgo, estudio, teoría, universidad, profesor, partícula, cuántica,
      marte, luna, solar, misión, sonda, células, molécula, matemáticas, arqueólogos, antiguo`,
    health: `salud, hospital, hospitales, pacientes, paciente, médicos, médico, enfermeras, enfermedad,
      enfermedades, cáncer, virus, vacuna, vacunación, sanitario, sanitaria, medicina, medicamento,
      tratamiento, cirugía, infección, epidemia, pandemia, obesidad, diabetes, salud mental, clínica
      | atención, síntomas, dieta, corazón, sangre, riesgo, gripe, terapia, farmacéutica, receta, tabaco,
      alcohol, muertes, embarazo, urgencias`,
    environment: `clima, climático, climática, medio ambiente, ambiental, emisiones, carbono, invernadero,
      contaminación, calentamiento, fauna, conservación, renovable, renovables, biodiversidad,
      deforestación, reciclaje, combustibles fósiles
      | energía, solar, eólica, bosque, bosques, especies, extinción, sequía, inundación, inundaciones,
      océano, temperaturas, verde, residuos, sostenible, ecosistema, hábitat, hielo, incendio forestal`,
    world: `guerra, tropas, militar, militares, soldados, refugiados, embajada, diplomático, diplomáticos,
      alto el fuego, insurgentes, rebeldes, milicianos, sanciones, naciones unidas, onu, otan, exteriores,
      invasión, conflicto, paz, humanitaria, frontera
      | país, países, internacional, régimen, ataque, ataques, muertos, bomba, violencia, protesta,
      manifestantes, crisis, ayuda, embajador, cumbre, tratado, nuclear, capital, terremoto, rehenes`,
  }),
  fr: vocabularies({
    politics: `élection, élections, électoral, parlement, parlementaire, député, députés, sénateur, sénat,
      ministre, politique, politiques, parti, gouvernement, opposition, assemblée nationale, scrutin,
      électeurs, campagne électorale, référendum, législatives, présidentielle, coalition, motion de censure
      | loi, lois, réforme, débat, président, dirigeant, maire, budget, impôts, impôt, vote, votes,
      sondage, majorité, constitution, décret, commission, porte-parole, citoyens, démocratie,
      socialiste, droite, gauche`,
    business: `entreprise, entreprises, actions, actionnaires, bénéfice, bénéfices, chiffre d'affaires,
      économie, économique, inflation, investisseurs, bourse, marché, marchés, banque, banques, ventes,
      dividende, trimestre, trimestriel, taux d'intérêt, euro, dollar, exportations, importations,
      commerce, déficit, croissance, pib, pétrole, prix
      | affaires, industrie, industriel, consommateurs, demande, coûts, dette, prêt, financier,
      financière, investissement, milliards, millions, analystes, accord, offre, emploi, emplois,
      chômage, salariés, usine, usines, production, secteur, faillite, marque, retraites, immobilier,
      fiscal, récession, fusion, rachat`,
    technology: `technologie, technologique, logiciel, logiciels, ordinateur, ordinateurs, internet,
      numérique, mobile, smartphone, téléphone, application, applications, microsoft, google, apple,
      navigateur, pirates informatiques, cyberattaque, cybersécurité, jeux vidéo, console, puce, puces,
      processeur, intelligence artificielle, algorithme, utilisateurs, réseaux sociaux
      | appareil, appareils, réseau, données, serveur, système, programme, code, développeurs, écran,
      robot, robots, électronique, caméra, moteur de recherche, plateforme, sécurité, brevet, télécoms,
      innovation, start-up, cloud, batterie`,
    sports: `football, basket, tennis, golf, cyclisme, rugby, athlétisme, olympique, olympiques,
      championnat, tournoi, ligue, coupe, entraîneur, attaquant, gardien, buts, sélection, stade, arbitre,
      penalty, finale, demi-finale, saison, club, médaille, mondial, joueur, joueurs, footballeur, match
      | équipe, équipes, gagner, victoire, défaite, champion, champions, titre, blessure, entraînement,
      supporters, sportif, sport, sports, athlète, record, journée, points, classement, transfert,
      contrat, trophée, minute, ballon`,
    entertainment: `film, films, cinéma, acteur, actrice, acteurs, réalisateur, réalisatrice, oscar,
      césar, grammy, musique, album, chanteur, chanteuse, chanson, chansons, concert, tournée, festival,
      théâtre, comédie musicale, comédie, hollywood, célébrité, star, vedette, roman, romancier,
      écrivain, livre, télévision, série, épisode, rock, pop, rappeur
      | récompense, nommé, nomination, cérémonie, spectacle, scène, public, spectateurs, rôle, casting,
      studio, producteur, box-office, artiste, artistes, art, galerie, exposition, littérature, poète,
      poésie, danse, opéra, orchestre, chaîne, radio, documentaire, humour`,
    science: `scientifiques, scientifique, recherche, chercheurs, chercheuse, laboratoire, physique,
      chimie, biologie, astronomes, espace, spatial, spatiale, nasa, télescope, planète, planètes,
      galaxie, astéroïde, orbite, vaisseau spatial, espèces, fossile, dinosaure, génétique, génome, adn,
      évolution
      | découverte, revue, étude, théorie, université, professeur, particule, quantique, mars, lune,
      solaire, mission, sonde, cellules, molécule, mathématiques, archéologues, ancien`,
    health: `santé, hôpital, hôpitaux, patients, patient, médecins, médecin, infirmières, maladie,
      maladies, cancer, virus, vaccin, vaccination, médical, médicale, médecine, médicament, traitement,
      chirurgie, infection, épidémie, pandémie, obésité, diabète, santé mentale, clinique
      | soins, symptômes, cœur, sang, risque, grippe, thérapie, pharmaceutique, ordonnance, tabac, alcool,
      décès, grossesse, urgences`,
    environment: `climat, climatique, environnement, environnemental, émissions, carbone, gaz à effet de
      serre, pollution, réchauffement, faune, conservation, renouvelable, renouvelables, biodiversité,
      déforestation, recyclage, énergies fossiles
      | énergie, solaire, éolien, forêt, forêts, espèces, extinction, sécheresse, inondation, inondations,
      océan, températures, vert, déchets, durable, écosystème, habitat, glace, incendie`,
    world: `guerre, troupes, militaire, militaires, soldats, réfugiés, ambassade, diplomate, diplomates,
      diplomatique, cessez-le-feu, insurgés, rebelles, miliciens, sanctions, nations unies, onu, otan,
      affaires étrangères, invasion, conflit, paix, humanitaire, frontière
      | pays, international, internationale, régime, attaque, attaques, tués, bombe, violences,
      manifestation, manifestants, crise, aide, ambassadeur, sommet, traité, nucléaire, capitale, séisme,
      otages`,
  }),
  de: vocabularies({
    politics: `wahl, wahlen, parlament, bundestag, landtag, abgeordnete, abgeordneter, minister, ministerin,
      politiker, politikerin, politik, politisch, partei, parteien, regierung, opposition, koalition,
      wähler, wahlkampf, referendum, kanzler, kanzlerin, bundesregierung, spd, cdu, csu, fdp, afd
      | gesetz, gesetze, reform, debatte, präsident, vorsitzende, bürgermeister, haushalt, steuern,
      abstimmung, umfrage, mehrheit, verfassung, ausschuss, sprecher, bürger, demokratie,
      sozialdemokraten, konservative`,
    business: `unternehmen, aktien, aktionäre, gewinn, gewinne, umsatz, wirtschaft, wirtschaftlich,
      inflation, anleger, investoren, börse, markt, märkte, bank, banken, dividende, quartal, zinsen,
      leitzins, euro, dollar, exporte, importe, handel, defizit, wachstum, bip, öl, preise, konzern
      | geschäft, industrie, verbraucher, nachfrage, kosten, schulden, kredit, finanzen, investition,
      milliarden, millionen, analysten, angebot, arbeitsplätze, arbeitslosigkeit, beschäftigte,
      mitarbeiter, fabrik, werk, produktion, branche, insolvenz, marke, rente, immobilien, rezession,
      fusion, übernahme`,
    technology: `technologie, software, computer, internet, digital, digitale, smartphone, handy, app,
      apps, microsoft, google, apple, browser, hacker, cyberangriff, cybersicherheit, videospiele,
      konsole, chip, chips, prozessor, künstliche intelligenz, algorithmus, nutzer, soziale netzwerke
      | gerät, geräte, netzwerk, netz, daten, server, system, programm, code, entwickler, bildschirm,
      laptop, roboter, elektronik, kamera, suchmaschine, plattform, sicherheit, patent,
      telekommunikation, innovation, start-up, cloud, akku`,
    sports: `fußball, basketball, tennis, golf, radsport, handball, leichtathletik, olympisch,
      olympischen, meisterschaft, turnier, liga, bundesliga, pokal, trainer, stürmer, torwart, tore,
      nationalmannschaft, stadion, schiedsrichter, elfmeter, finale, halbfinale, saison, verein, medaille,
      weltmeisterschaft, spieler, spiel
      | mannschaft, team, gewinnen, gewann, sieg, niederlage, unentschieden, meister, titel, verletzung,
      training, fans, sportlich, sport, athlet, rekord, spieltag, punkte, tabelle, transfer, trophäe,
      minute, ball`,
    entertainment: `film, filme, kino, schauspieler, schauspielerin, regisseur, regisseurin, oscar, grammy,
      musik, album, sänger, sängerin, band, lied, song, konzert, tournee, festival, theater, musical,
      komödie, hollywood, star, stars, roman, schriftsteller, autor, buch, fernsehen, serie, rock, pop,
      rapper
      | auszeichnung, nominiert, nominierung, verleihung, show, bühne, publikum, zuschauer, rolle,
      besetzung, studio, produzent, premiere, künstler, künstlerin, kunst, galerie, ausstellung,
      literatur, dichter, tanz, oper, orchester, sender, radio, dokumentarfilm`,
    science: `wissenschaftler, wissenschaftlerin, wissenschaft, wissenschaftlich, forschung, forscher,
      forscherin, experiment, labor, physik, chemie, biologie, astronomen, weltraum, raumfahrt, nasa,
      teleskop, planet, planeten, galaxie, asteroid, umlaufbahn, raumsonde, fossil, dinosaurier,
      genetisch, genom, dna, evolution
      | entdeckung, fachzeitschrift, studie, theorie, universität, professor, teilchen, quanten, mars,
      mond, mission, sonde, zellen, molekül, mathematik, archäologen`,
    health: `gesundheit, krankenhaus, krankenhäuser, klinik, patienten, patient, ärzte, arzt, ärztin,
      pflegekräfte, krankheit, krankheiten, krebs, virus, impfstoff, impfung, medizinisch, medizin,
      medikament, behandlung, infektion, epidemie, pandemie, übergewicht, diabetes, psychisch
      | pflege, symptome, ernährung, herz, blut, risiko, grippe, therapie, pharma, rezept, rauchen,
      alkohol, todesfälle, schwangerschaft, notaufnahme`,
    environment: `klima, klimawandel, umwelt, emissionen, kohlendioxid, co2, treibhausgase, verschmutzung,
      erderwärmung, artenschutz, naturschutz, erneuerbare, artenvielfalt, abholzung, recycling, fossile
      | energie, solar, windkraft, wald, wälder, aussterben, dürre, hochwasser, überschwemmung, ozean,
      meer, temperaturen, müll, abfall, nachhaltig, ökosystem, lebensraum, eis`,
    world: `krieg, truppen, militär, militärisch, soldaten, flüchtlinge, botschaft, diplomat, diplomaten,
      diplomatisch, waffenruhe, waffenstillstand, aufständische, rebellen, milizen, sanktionen, vereinte
      nationen, uno, nato, außenminister, invasion, konflikt, frieden, humanitär, grenze
      | länder, international, regime, angriff, angriffe, getötet, bombe, gewalt, protest, demonstranten,
      krise, hilfe, botschafter, gipfel, vertrag, atom, hauptstadt, erdbeben, geiseln`,
  }),
  it: vocabularies({
    politics: `elezioni, elettorale, parlamento, parlamentare, deputato, deputati, senatore, senato, ministro,
      ministra, politico, politica, politici, partito, partiti, governo, opposizione, camera dei deputati,
      elettori, campagna elettorale, referendum, legislatura, coalizione, maggioranza, premier
      | legge, leggi, riforma, dibattito, presidente, leader, sindaco, comune, bilancio, tasse, voto,
      votazione, sondaggio, costituzione, decreto, commissione, portavoce, cittadini, democrazia,
      sinistra, destra`,
    business: `azienda, aziende, società, azioni, azionisti, utile, utili, ricavi, fatturato, economia,
      economico, economica, inflazione, investitori, borsa, mercato, mercati, banca, banche, vendite,
      dividendo, trimestre, tassi di interesse, euro, dollaro, esportazioni, importazioni, commercio,
      deficit, crescita, pil, petrolio, prezzi
      | affari, industria, industriale, consumatori, domanda, costi, debito, prestito, finanziario,
      finanziaria, investimento, miliardi, milioni, analisti, accordo, offerta, posti di lavoro,
      disoccupazione, lavoratori, fabbrica, stabilimento, produzione, settore, fallimento, marchio,
      pensioni, mutuo, fiscale, recessione, fusione, acquisizione`,
    technology: `tecnologia, tecnologico, software, computer, internet, digitale, cellulare, smartphone,
      telefono, applicazione, app, microsoft, google, apple, browser, hacker, attacco informatico,
      sicurezza informatica, videogiochi, console, chip, processore, intelligenza artificiale,
      algoritmo, utenti, social network
      | dispositivo, dispositivi, rete, dati, server, sistema, programma, codice, sviluppatori, schermo,
      robot, elettronica, fotocamera, motore di ricerca, piattaforma, sicurezza, brevetto,
      telecomunicazioni, innovazione, startup, cloud, batteria`,
    sports: `calcio, basket, pallacanestro, tennis, golf, ciclismo, atletica, olimpico, olimpiadi,
      campionato, torneo, serie a, coppa, allenatore, attaccante, portiere, gol, nazionale, stadio,
      arbitro, rigore, finale, semifinale, stagione, club, medaglia, mondiali, giocatore, giocatori,
      calciatore, partita
      | squadra, squadre, vincere, vittoria, sconfitta, pareggio, campione, campioni, titolo, infortunio,
      allenamento, tifosi, sportivo, sport, atleta, record, giornata, punti, classifica, trasferimento,
      contratto, debutto, trofeo, minuto, pallone`,
    entertainment: `film, cinema, attore, attrice, attori, regista, oscar, grammy, musica, album, cantante,
      band, canzone, canzoni, concerto, tour, festival, teatro, musical, commedia, hollywood, celebrità,
      star, romanzo, scrittore, libro, televisione, serie, episodio, rock, pop, rapper, sanremo
      | premio, premi, cerimonia, spettacolo, palco, pubblico, spettatori, ruolo, protagonista, cast,
      produttore, botteghino, artista, artisti, arte, galleria, mostra, letteratura, poeta, poesia, danza,
      opera lirica, orchestra, canale, radio, documentario`,
    science: `scienziati, scienziato, scientifico, scientifica, ricerca, ricercatori, esperimento,
      laboratorio, fisica, chimica, biologia, astronomi, spazio, spaziale, nasa, telescopio, pianeta,
      pianeti, galassia, asteroide, orbita, sonda spaziale, specie, fossile, dinosauro, genetica, genoma,
      dna, evoluzione
      | scoperta, rivista, studio, teoria, università, professore, particella, quantistica, marte, luna,
      solare, missione, sonda, cellule, molecola, matematica, archeologi, antico`,
    health: `salute, ospedale, ospedali, pazienti, paziente, medici, medico, infermieri, malattia, malattie,
      cancro, tumore, virus, vaccino, vaccinazione, sanitario, sanitaria, medicina, farmaco, trattamento,
      chirurgia, infezione, epidemia, pandemia, obesità, diabete, salute mentale, clinica
      | assistenza, sintomi, dieta, cuore, sangue, rischio, influenza, terapia, farmaceutica, ricetta,
      fumo, alcol, decessi, gravidanza, pronto soccorso`,
    environment: `clima, climatico, climatica, ambiente, ambientale, emissioni, carbonio, gas serra,
      inquinamento, riscaldamento globale, fauna, conservazione, rinnovabile, rinnovabili, biodiversità,
      deforestazione, riciclo, combustibili fossili
      | energia, solare, eolico, foresta, foreste, estinzione, siccità, alluvione, inondazioni, oceano,
      temperature, verde, rifiuti, sostenibile, ecosistema, habitat, ghiaccio, incendi`,
    world: `guerra, truppe, militare, militari, soldati, profughi, rifugiati, ambasciata, diplomatico,
      diplomatici, cessate il fuoco, tregua, insorti, ribelli, miliziani, sanzioni, nazioni unite, onu,
      nato, esteri, invasione, conflitto, pace, umanitaria, confine
      | paese, paesi, internazionale, regime, attacco, attacchi, uccisi, bomba, violenza, protesta,
      manifestanti, crisi, aiuti, ambasciatore, vertice, trattato, nucleare, capitale, terremoto, ostaggi`,
  }),
  pt: vocabularies({
    politics: `eleições, eleitoral, parlamento, parlamentar, deputado, deputados, senador, senado, ministro,
      ministra, político, política, políticos, partido, partidos, governo, oposição, congresso, votação,
      eleitores, campanha eleitoral, referendo, coligação, coalizão, assembleia
      | lei, leis, reforma, debate, presidente, líder, prefeito, prefeitura, orçamento, impostos, voto,
      votos, sondagem, maioria, constituição, decreto, comissão, porta-voz, cidadãos, democracia,
      esquerda, direita`,
    business: `empresa, empresas, ações, acionistas, lucro, lucros, receita, faturamento, economia,
      económico, econômico, inflação, investidores, bolsa, mercado, mercados, banco, bancos, vendas,
      dividendos, trimestre, juros, euro, dólar, exportações, importações, comércio, déficit, défice,
      crescimento, pib, petróleo, preços
      | negócios, indústria, industrial, consumidores, procura, demanda, custos, dívida, empréstimo,
      financeiro, financeira, investimento, bilhões, milhões, analistas, acordo, oferta, emprego,
      empregos, desemprego, trabalhadores, fábrica, fábricas, produção, setor, falência, marca,
      pensões, hipoteca, habitação, fiscal, recessão, fusão, aquisição`,
    technology: `tecnologia, tecnológica, software, computador, computadores, internet, digital, celular,
      telemóvel, smartphone, telefone, aplicativo, microsoft, google, apple, navegador, hackers, ataque
      cibernético, cibersegurança, videogames, videojogos, console, chip, chips, processador,
      inteligência artificial, algoritmo, usuários, utilizadores, redes sociais
      | dispositivo, dispositivos, rede, dados, servidor, sistema, programa, código, desenvolvedores,
      tela, ecrã, robô, robôs, eletrônica, câmera, plataforma, segurança, patente, telecomunicações,
      inovação, startup, nuvem, bateria`,
    sports: `futebol, basquete, basquetebol, tênis, ténis, golfe, ciclismo, atletismo, olímpico,
      olímpicos, campeonato, torneio, liga, copa, taça, treinador, atacante, avançado, goleiro,
      guarda-redes, gol, golo, golos, gols, seleção, estádio, árbitro, pênalti, penálti, final,
      semifinal, temporada, clube, medalha, mundial, jogador, jogadores, partida
      | equipe, equipa, time, vencer, venceu, vitória, derrota, empate, campeão, campeões, título, lesão,
      treino, torcedores, adeptos, torcida, esportivo, desportivo, esporte, desporto, atleta, recorde,
      rodada, jornada, pontos, classificação, contratação, contrato, estreia, troféu, minuto, bola`,
    entertainment: `filme, filmes, cinema, ator, atriz, atores, realizador, cineasta, óscar, oscar, grammy,
      música, álbum, cantor, cantora, banda, canção, canções, concerto, turnê, digressão, festival,
      teatro, musical, comédia, hollywood, celebridade, estrela, novela, romance, escritor, livro,
      televisão, série, episódio, rock, pop, rapper
      | prêmio, prémio, prêmios, prémios, indicado, nomeado, indicação, nomeação, cerimônia, cerimónia,
      espetáculo, palco, público, espectadores, papel, protagonista, elenco, estúdio, produtor,
      bilheteria, bilheteira, artista, artistas, arte, galeria, exposição, literatura, poeta, poesia,
      dança, ópera, orquestra, canal, rádio, documentário`,
    science: `cientistas, cientista, científico, científica, pesquisa, investigação, pesquisadores,
      investigadores, experimento, laboratório, física, química, biologia, astrônomos, astrónomos,
      espaço, espacial, nasa, telescópio, planeta, planetas, galáxia, asteroide, órbita, nave espacial,
      espécies, fóssil, dinossauro, genética, genoma, dna, adn, evolução
      | descoberta, revista, estudo, teoria, universidade, professor, partícula, quântica, marte, lua,
      solar, missão, sonda, células, molécula, matemática, arqueólogos, antigo`,
    health: `saúde, hospital, hospitais, pacientes, paciente, médicos, médico, enfermeiros, doença, doenças,
      câncer, cancro, vírus, vacina, vacinação, sanitário, medicina, medicamento, tratamento, cirurgia,
      infecção, infeção, epidemia, pandemia, obesidade, diabetes, saúde mental, clínica
      | cuidados, sintomas, dieta, coração, sangue, risco, gripe, terapia, farmacêutica, tabaco, álcool,
      mortes, óbitos, gravidez, urgência`,
    environment: `clima, climático, climática, meio ambiente, ambiental, emissões, carbono, efeito estufa,
      poluição, aquecimento global, fauna, conservação, renovável, renováveis, biodiversidade,
      desmatamento, desflorestação, reciclagem, combustíveis fósseis
      | energia, solar, eólica, floresta, florestas, extinção, seca, inundação, inundações, enchentes,
      oceano, temperaturas, verde, resíduos, lixo, sustentável, ecossistema, habitat, gelo, incêndio
      florestal, amazônia, amazónia`,
    world: `guerra, tropas, militar, militares, soldados, refugiados, embaixada, diplomata, diplomatas,
      diplomático, cessar-fogo, insurgentes, rebeldes, milícias, sanções, nações unidas, onu, otan, nato,
      exterior, invasão, conflito, paz, humanitária, fronteira
      | país, países, internacional, regime, ataque, ataques, mortos, bomba, violência, protesto,
      manifestantes, crise, ajuda, embaixador, cúpula, cimeira, tratado, nuclear, capital, terremoto,
      sismo, reféns`,
  }),
  ru: vocabularies({
    politics: `выборы, избирательный, парламент, госдума, дума, депутат, депутаты, сенатор, министр,
      политик, политика, политический, партия, правительство, оппозиция, голосование, избиратели,
      предвыборная кампания, референдум, коалиция, законопроект
      | закон, законы, реформа, дебаты, президент, лидер, мэр, бюджет, налоги, опрос, большинство,
      конституция, указ, комиссия, пресс-секретарь, граждане, демократия, кремль`,
    business: `компания, компании, акции, акционеры, прибыль, выручка, доходы, экономика, экономический,
      инфляция, инвесторы, биржа, рынок, рынки, банк, банки, продажи, дивиденды, квартал, ключевая
      ставка, рубль, доллар, евро, экспорт, импорт, торговля, дефицит, ввп, нефть, цены
      | бизнес, промышленность, потребители, спрос, расходы, долг, кредит, финансовый, инвестиции,
      миллиардов, миллионов, аналитики, сделка, рабочих мест, безработица, работники, завод, заводы,
      производство, отрасль, банкротство, бренд, пенсии, ипотека, налоговый, рецессия, курс, слияние,
      поглощение`,
    technology: `технологии, технология, программное обеспечение, компьютер, интернет, цифровой, мобильный,
      смартфон, телефон, приложение, microsoft, google, apple, браузер, хакеры, кибератака,
      кибербезопасность, видеоигры, чип, чипы, процессор, искусственный интеллект, алгоритм,
      пользователи, соцсети, социальные сети
      | устройство, устройства, сеть, данные, сервер, система, программа, код, разработчики, экран,
      ноутбук, робот, роботы, электроника, камера, платформа, безопасность, патент, инновации, стартап,
      облако`,
    sports: `футбол, баскетбол, хоккей, теннис, гольф, велоспорт, легкая атлетика, олимпийский, олимпиада,
      чемпионат, турнир, лига, кубок, тренер, нападающий, вратарь, гол, голы, сборная, стадион,
      пенальти, финал, полуфинал, сезон, клуб, медаль, матч, игрок, игроки, футболист
      | команда, команды, победа, поражение, ничья, чемпион, титул, травма, тренировка, болельщики,
      спортивный, спорт, спортсмен, рекорд, очки, трансфер, контракт, дебют, трофей, минута, мяч`,
    entertainment: `фильм, фильмы, кино, актер, актриса, актеры, режиссер, оскар, грэмми, музыка, альбом,
      певец, певица, песня, песни, концерт, гастроли, фестиваль, театр, мюзикл, комедия, голливуд,
      знаменитость, звезда, роман, писатель, книга, телевидение, сериал, эпизод, рок, поп, рэпер
      | премия, награда, номинация, церемония, шоу, сцена, зрители, роль, студия, продюсер, премьера,
      прокат, художник, искусство, галерея, выставка, литература, поэт, поэзия, танец, опера, оркестр,
      телеканал, радио, документальный`,
    science: `ученые, ученый, научный, исследование, исследователи, эксперимент, лаборатория, физика,
      химия, биология, астрономы, космос, космический, наса, роскосмос, телескоп, планета, планеты,
      галактика, астероид, орбита, космический корабль, окаменелость, динозавр, генетический, геном,
      днк, эволюция
      | открытие, журнал, теория, университет, профессор, частица, квантовый, марс, луна, солнечный,
      миссия, зонд, клетки, молекула, математика, археологи, древний`,
    health: `здоровье, здравоохранение, больница, больницы, пациенты, пациент, врачи, врач, медсестры,
      болезнь, заболевание, заболевания, рак, вирус, вакцина, вакцинация, медицинский, медицина,
      лекарство, лечение, инфекция, эпидемия, пандемия, ожирение, диабет, психическое здоровье, клиника
      | уход, симптомы, диета, сердце, кровь, риск, грипп, терапия, фармацевтический, рецепт, курение,
      алкоголь, смерти, беременность`,
    environment: `климат, климатический, окружающая среда, экология, экологический, выбросы, углерод,
      парниковые газы, загрязнение, потепление, дикая природа, заповедник, возобновляемые,
      биоразнообразие, вырубка лесов, переработка, ископаемое топливо
      | энергия, солнечная, ветровая, лес, леса, вымирание, засуха, наводнение, наводнения, океан,
      температура, отходы, мусор, устойчивый, экосистема, лед, пожары`,
    world: `война, войска, военные, военный, солдаты, беженцы, посольство, дипломат, дипломаты,
      дипломатический, перемирие, прекращение огня, боевики, повстанцы, санкции, оон, нато, мид,
      вторжение, конфликт, гуманитарный, граница
      | страна, страны, международный, режим, атака, удар, удары, погибли, бомба, насилие, протест,
      протестующие, кризис, помощь, посол, саммит, договор, ядерный, столица, землетрясение, заложники`,
  }),
  nl: vocabularies({
    politics: `verkiezingen, verkiezing, parlement, tweede kamer, eerste kamer, kamerleden, kamerlid, minister,
      ministers, politicus, politici, politiek, politieke, partij, partijen, regering, kabinet, oppositie,
      coalitie, kiezers, campagne, referendum, premier, formatie, vvd, pvv, d66, cda
      | wet, wetten, hervorming, debat, president, voorzitter, burgemeester, gemeenteraad, begroting,
      belastingen, stemming, peiling, meerderheid, grondwet, commissie, woordvoerder, burgers, democratie`,
    business: `bedrijf, bedrijven, aandelen, aandeelhouders, winst, omzet, economie, economische, inflatie,
      beleggers, beurs, markt, markten, bank, banken, dividend, kwartaal, rente, euro, dollar, export,
      import, handel, tekort, groei, bbp, olie, prijzen, concern
      |  industrie, consumenten, kosten, schulden, lening, financiële, investering,
      miljard, miljoen, analisten, banen, werkloosheid, werknemers, fabriek, productie, sector,
      faillissement, merk, pensioen, hypotheek, woningmarkt, recessie, fusie, overname`,
    technology: `technologie, software, computer, computers, internet, digitaal, digitale, smartphone,
      telefoon, app, apps, microsoft, google, apple, hackers, cyberaanval, cyberveiligheid, games,
      chip, chips, processor, kunstmatige intelligentie, algoritme, gebruikers, sociale media
      | apparaat, apparaten, netwerk, gegevens, data, server, systeem, programma, code, ontwikkelaars,
      scherm, laptop, robot, robots, elektronica, camera, zoekmachine, platform, beveiliging, patent,
      telecom, innovatie, start-up, cloud, batterij`,
    sports: `voetbal, basketbal, tennis, golf, wielrennen, schaatsen, atletiek, olympische, kampioenschap,
      toernooi, competitie, eredivisie, beker, trainer, coach, spits, keeper, doelpunt, doelpunten,
      nationale ploeg, oranje, stadion, scheidsrechter, penalty, finale, halve finale, seizoen, club,
      medaille, wereldkampioenschap, speler, spelers, wedstrijd
      | ploeg, team, winnen, won, zege, overwinning, nederlaag, gelijkspel, kampioen, titel, blessure,
      training, fans, supporters, sport, atleet, record, speelronde, punten, ranglijst, transfer,
      contract, trofee, minuut, bal`,
    entertainment: `film, films, bioscoop, acteur, actrice, acteurs, regisseur, oscar, grammy, muziek,
      album, zanger, zangeres, band, liedje, concert, tournee, festival, theater, musical,
      komedie, hollywood, ster, sterren, roman, schrijver, boek, televisie, serie, aflevering, rock, pop,
      rapper
      |  genomineerd, nominatie, uitreiking, show, podium, publiek, kijkers, rol, studio,
      producent, première, kunstenaar, kunst, galerie, tentoonstelling, literatuur, dichter, dans,
      opera, orkest, omroep, radio, documentaire`,
    science: `wetenschappers, wetenschapper, wetenschap, wetenschappelijk, onderzoek, onderzoekers,
      experiment, laboratorium, natuurkunde, scheikunde, biologie, astronomen, ruimte, ruimtevaart, nasa,
      telescoop, planeet, planeten, sterrenstelsel, asteroïde, ruimtesonde, fossiel, dinosaurus,
      genetisch, genoom, dna, evolutie
      | ontdekking, tijdschrift, studie, theorie, universiteit, hoogleraar, deeltjes, quantum, mars,
      maan, missie, sonde, cellen, molecuul, wiskunde, archeologen`,
    health: `gezondheid, ziekenhuis, ziekenhuizen, kliniek, patiënten, patiënt, artsen, arts, dokter,
      verpleegkundigen, ziekte, ziekten, kanker, virus, vaccin, vaccinatie, medisch, medische,
      geneesmiddel, medicijn, behandeling, infectie, epidemie, pandemie, obesitas, diabetes, ggz
      | zorg, symptomen, voeding, hart, bloed, risico, griep, therapie, farmaceutisch, recept, roken,
      alcohol, sterfgevallen, zwangerschap, spoedeisende hulp, huisarts`,
    environment: `klimaat, klimaatverandering, milieu, uitstoot, emissies, koolstof, co2, broeikasgassen,
      vervuiling, opwarming, natuurbehoud, duurzame energie, biodiversiteit, ontbossing, recycling,
      fossiele, stikstof
      | energie, zonne-energie, windenergie, bos, bossen, uitsterven, droogte, overstromingen, oceaan,
      zee, temperaturen, afval, plastic, duurzaam, ecosysteem, leefgebied, ijs`,
    world: `oorlog, troepen, leger, militair, militaire, soldaten, vluchtelingen, ambassade, diplomaat,
      diplomaten, diplomatiek, staakt-het-vuren, wapenstilstand, opstandelingen, rebellen, milities,
      sancties, verenigde naties, vn, navo, minister van buitenlandse zaken, invasie, conflict, vrede,
      humanitaire, grens
      | landen, internationaal, regime, aanval, aanvallen, gedood, bom, geweld, protest, demonstranten,
      crisis, hulp, ambassadeur, top, verdrag, nucleair, hoofdstad, aardbeving, gijzelaars`,
  }),
  pl: vocabularies({
    politics: `wybory, wyborach, wyborczy, parlament, sejm, senat, posłowie, poseł, posłanka, minister,
      ministrowie, polityk, politycy, polityka, polityczny, partia, partie, rząd, opozycja, koalicja,
      wyborcy, kampania wyborcza, referendum, premier, pis, platforma obywatelska, konfederacja
      | ustawa, ustawy, reforma, debata, prezydent, przewodniczący, burmistrz, budżet, podatki,
      głosowanie, sondaż, większość, konstytucja, komisja, rzecznik, obywatele, demokracja`,
    business: `firma, firmy, spółka, spółki, akcje, akcjonariusze, zysk, zyski, przychody, gospodarka,
      gospodarczy, inflacja, inwestorzy, giełda, rynek, rynki, bank, banki, dywidenda, kwartał,
      stopy procentowe, złoty, euro, dolar, eksport, import, handel, deficyt, wzrost, pkb, ropa, ceny
      | biznes, przemysł, konsumenci, popyt, koszty, dług, kredyt, finansowy, inwestycja, miliardów,
      milionów, analitycy, oferta, zatrudnienie, bezrobocie, pracownicy, fabryka, produkcja, sektor,
      upadłość, marka, emerytury, mieszkania, recesja, fuzja, przejęcie`,
    technology: `technologia, technologie, oprogramowanie, komputer, komputery, internet, cyfrowy,
      cyfrowe, smartfon, telefon, aplikacja, aplikacje, microsoft, google, apple, hakerzy, cyberatak,
      cyberbezpieczeństwo, gry wideo, konsola, chip, procesor, sztuczna inteligencja, algorytm,
      użytkownicy, media społecznościowe
      | urządzenie, urządzenia, sieć, dane, serwer, system, program, kod, programiści, ekran, laptop,
      robot, roboty, elektronika, kamera, wyszukiwarka, platforma, bezpieczeństwo, patent,
      telekomunikacja, innowacje, startup, chmura, bateria`,
    sports: `piłka nożna, piłkarz, piłkarze, koszykówka, siatkówka, tenis, golf, kolarstwo, skoki
      narciarskie, lekkoatletyka, olimpijski, igrzyska, mistrzostwa, turniej, liga, ekstraklasa, puchar,
      trener, napastnik, bramkarz, gol, gole, bramka, reprezentacja, stadion, sędzia, rzut karny, finał,
      półfinał, sezon, klub, medal, mundial, zawodnik, zawodnicy, mecz
      | drużyna, wygrać, wygrał, zwycięstwo, porażka, remis, mistrz, tytuł, kontuzja, trening,
      kibice, sport, sportowiec, rekord, punkty, tabela, transfer, kontrakt, trofeum, minuta`,
    entertainment: `film, filmy, kino, aktor, aktorka, aktorzy, reżyser, oscar, grammy, muzyka, album,
      piosenkarz, piosenkarka, zespół muzyczny, piosenka, koncert, trasa koncertowa, festiwal, teatr,
      musical, komedia, hollywood, gwiazda, gwiazdy, powieść, pisarz, książka, telewizja, serial,
      odcinek, rock, pop, raper
      | nagroda, nominowany, nominacja, gala, show, scena, publiczność, widzowie, rola, obsada, studio,
      producent, premiera, artysta, artystka, sztuka, galeria, wystawa, literatura, poeta, taniec,
      opera, orkiestra, radio, dokument`,
    science: `naukowcy, naukowiec, nauka, naukowy, badania, badacze, eksperyment, laboratorium, fizyka,
      chemia, biologia, astronomowie, kosmos, kosmiczny, nasa, teleskop, planeta, planety, galaktyka,
      asteroida, orbita, sonda, skamieniałość, dinozaur, genetyczny, genom, dna, ewolucja
      | odkrycie, czasopismo, badanie, teoria, uniwersytet, profesor, cząstki, kwantowy, mars, księżyc,
      misja, komórki, cząsteczka, matematyka, archeolodzy`,
    health: `zdrowie, szpital, szpitale, klinika, pacjenci, pacjent, lekarze, lekarz, pielęgniarki,
      choroba, choroby, nowotwór, rak, wirus, szczepionka, szczepienie, medyczny, medycyna, lek, leki,
      leczenie, zakażenie, epidemia, pandemia, otyłość, cukrzyca, nfz
      | opieka, objawy, dieta, serce, krew, ryzyko, grypa, terapia, farmaceutyczny, recepta, palenie,
      alkohol, zgony, ciąża, sor`,
    environment: `klimat, zmiany klimatu, klimatyczny, środowisko, emisje, emisja, węgiel, co2, gazy
      cieplarniane, zanieczyszczenie, smog, ocieplenie, ochrona przyrody, odnawialne, bioróżnorodność,
      wylesianie, recykling, kopalne
      | energia, fotowoltaika, wiatraki, las, lasy, wymieranie, susza, powódź, ocean, morze,
      temperatury, śmieci, odpady, plastik, zrównoważony, ekosystem, siedlisko, lód`,
    world: `wojna, wojska, wojsko, armia, militarny, żołnierze, uchodźcy, ambasada, dyplomata, dyplomaci,
      dyplomatyczny, zawieszenie broni, rozejm, rebelianci, bojówki, sankcje, onz, nato, minister spraw
      zagranicznych, inwazja, konflikt, pokój, humanitarny, granica
      | kraje, międzynarodowy, reżim, atak, ataki, zabici, bomba, przemoc, protest, demonstranci,
      kryzys, pomoc, ambasador, szczyt, traktat, jądrowy, stolica, trzęsienie ziemi, zakładnicy`,
  }),
  tr: vocabularies({
    politics: `seçim, seçimler, seçmen, seçmenler, meclis, tbmm, milletvekili, milletvekilleri, bakan,
      bakanlar, siyasetçi, siyaset, siyasi, parti, partiler, hükümet, muhalefet, koalisyon, kampanya,
      referandum, cumhurbaşkanı, başbakan, akp, chp, mhp, oy
      | yasa, kanun, reform, tartışma, başkan, belediye başkanı, belediye, bütçe, vergi, vergiler, oylama,
      anket, çoğunluk, anayasa, komisyon, sözcü, vatandaşlar, demokrasi`,
    business: `şirket, şirketler, hisse, hisseler, hissedarlar, kâr, ekonomi, ekonomik, enflasyon,
      yatırımcılar, borsa, piyasa, piyasalar, banka, bankalar, temettü, çeyrek, faiz, merkez bankası, lira,
      dolar, euro, ihracat, ithalat, ticaret, büyüme, gsyh, petrol, fiyatlar
      | iş dünyası, sanayi, tüketiciler, talep, maliyet, borç, kredi, finansal, yatırım, milyar, milyon,
      analistler, teklif, istihdam, işsizlik, çalışanlar, fabrika, üretim, sektör, iflas, marka, emekli,
      konut, durgunluk, birleşme, satın alma`,
    technology: `teknoloji, yazılım, bilgisayar, bilgisayarlar, internet, dijital, akıllı telefon, telefon,
      uygulama, uygulamalar, microsoft, google, apple, hacker, siber saldırı, siber güvenlik, video
      oyunları, konsol, çip, işlemci, yapay zeka, yapay zekâ, algoritma, kullanıcılar, sosyal medya
      | cihaz, cihazlar, ağ, veri, veriler, sunucu, sistem, program, kod, geliştiriciler, ekran, dizüstü,
      robot, elektronik, kamera, arama motoru, platform, güvenlik, patent, telekomünikasyon, inovasyon,
      girişim, bulut, batarya`,
    sports: `futbol, basketbol, voleybol, tenis, golf, bisiklet, atletizm, olimpiyat, olimpiyatları,
      şampiyonluk, turnuva, lig, süper lig, kupa, teknik direktör, antrenör, forvet, kaleci, gol, goller,
      milli takım, stadyum, hakem, penaltı, final, yarı final, sezon, kulüp, madalya, dünya kupası,
      futbolcu, oyuncular, maç
      | takım, kazanmak, kazandı, galibiyet, yenilgi, beraberlik, şampiyon, unvan, sakatlık, antrenman,
      taraftarlar, spor, sporcu, rekor, puan, puan durumu, transfer, sözleşme, dakika, top`,
    entertainment: `film, filmler, sinema, aktör, aktris, yönetmen, oscar, grammy, müzik, albüm,
      şarkıcı, şarkı, konser, turne, festival, tiyatro, müzikal, komedi, hollywood, yıldız,
      yıldızlar, roman, yazar, kitap, televizyon, dizi, rock, pop, rapçi
      | ödül, aday, adaylık, tören, gösteri, sahne, seyirci, izleyiciler, rol, kadro, stüdyo, yapımcı,
      gala, sanatçı, sanat, galeri, sergi, edebiyat, şair, dans, opera, orkestra, radyo, belgesel`,
    science: `bilim insanları, bilim insanı, bilim, bilimsel, araştırma, araştırmacılar, deney, laboratuvar,
      fizik, kimya, biyoloji, astronomlar, uzay, nasa, teleskop, gezegen, gezegenler, galaksi, asteroit,
      yörünge, uzay aracı, fosil, dinozor, genetik, genom, dna, evrim
      | keşif, dergi, teori, üniversite, profesör, parçacık, kuantum, mars, hücreler,
      molekül, matematik, arkeologlar`,
    health: `sağlık, hastane, hastaneler, klinik, hastalar, hasta, doktorlar, doktor, hekim, hemşireler,
      hastalık, hastalıklar, kanser, virüs, aşı, aşılama, tıbbi, tıp, ilaç, tedavi, enfeksiyon, salgın,
      pandemi, obezite, diyabet
      | bakım, belirtiler, beslenme, kalp, kan, risk, grip, terapi, ilaç sektörü, reçete, sigara, alkol,
      ölümler, hamilelik, acil servis`,
    environment: `iklim, iklim değişikliği, çevre, emisyon, emisyonlar, karbon, co2, sera gazı, kirlilik,
      küresel ısınma, doğa koruma, yenilenebilir, biyoçeşitlilik, ormansızlaşma, geri dönüşüm, fosil
      yakıt
      | enerji, güneş enerjisi, rüzgâr enerjisi, orman, ormanlar, yok olma, kuraklık, sel, okyanus, deniz,
      sıcaklıklar, çöp, atık, plastik, sürdürülebilir, ekosistem, yaşam alanı, buzul`,
    world: `savaş, birlikler, ordu, askeri, askerler, mülteciler, büyükelçilik, diplomat, diplomatlar,
      diplomatik, ateşkes, isyancılar, militanlar, yaptırımlar, birleşmiş milletler, bm, nato, dışişleri
      bakanı, işgal, çatışma, barış, insani, sınır
      | ülkeler, uluslararası, rejim, saldırı, saldırılar, öldürüldü, bomba, şiddet, protesto,
      göstericiler, kriz, yardım, büyükelçi, zirve, anlaşma, nükleer, başkent, deprem, rehineler`,
  }),
  sv: vocabularies({
    politics: `val, valet, riksdagen, riksdag, riksdagsledamot, ledamöter, minister, ministrar, politiker,
      politik, politiska, parti, partier, regeringen, regering, oppositionen, koalition, väljare,
      valrörelse, folkomröstning, statsminister, socialdemokraterna, moderaterna, sverigedemokraterna
      |  lagar, reform, debatt, president, ordförande, kommunen, budget, skatter, omröstning,
      opinionsmätning, majoritet, grundlag, utskott, talesperson, medborgare, demokrati`,
    business: `företag, aktier, aktieägare, vinst, vinsten, omsättning, ekonomi, ekonomiska, inflation,
      investerare, börsen, marknaden, marknader, bank, banker, utdelning, kvartal, räntan, ränta,
      riksbanken, kronor, dollar, euro, export, import, handel, underskott, tillväxt, bnp, olja, priser
      | affärer, industri, konsumenter, efterfrågan, kostnader, skulder, lån, finansiella, investering,
      miljarder, miljoner, analytiker, jobb, arbetslöshet, anställda, fabrik, produktion, sektor,
      konkurs, varumärke, pension, bostäder, lågkonjunktur, fusion, uppköp`,
    technology: `teknik, teknologi, mjukvara, dator, datorer, internet, digital, digitala, smarttelefon,
      mobil, app, appar, microsoft, google, apple, hackare, cyberattack, cybersäkerhet, datorspel, konsol,
      chip, processor, artificiell intelligens, ai, algoritm, användare, sociala medier
      | enhet, enheter, nätverk, data, server, system, program, kod, utvecklare, skärm, laptop, robot,
      elektronik, kamera, sökmotor, plattform, säkerhet, patent, telekom, innovation, startup, moln,
      batteri`,
    sports: `fotboll, basket, ishockey, hockey, tennis, golf, cykling, friidrott, olympiska, mästerskap,
      turnering, allsvenskan, cup, tränare, anfallare, målvakt, landslaget, arena, domare,
      straff, final, semifinal, säsong, klubb, medalj, vm, spelare, match
      |  laget, vinna, vann, seger, förlust, oavgjort, mästare, titel, skada, träning, fans,
      supportrar, idrott, sport, idrottare, rekord, omgång, poäng, tabell, övergång, kontrakt, pokal,
      minut, boll`,
    entertainment: `film, filmer, bio, skådespelare, skådespelerska, regissör, oscar, grammis, grammy,
      musik, album, sångare, sångerska, band, låt, konsert, turné, festival, teater, musikal, komedi,
      hollywood, stjärna, stjärnor, roman, författare, bok, tv, serie, avsnitt, rock, pop, rappare
      |  nominerad, nominering, gala, show, scen, publik, tittare, roll, studio, producent,
      premiär, konstnär, konst, galleri, utställning, litteratur, poet, dans, opera, orkester, radio,
      dokumentär`,
    science: `forskare, vetenskap, vetenskapliga, forskning, experiment, laboratorium, fysik, kemi,
      biologi, astronomer, rymden, rymd, nasa, teleskop, planet, planeter, galax, asteroid, omloppsbana,
      rymdsond, fossil, dinosaurie, genetisk, genom, dna, evolution
      | upptäckt, tidskrift, studie, teori, universitet, professor, partiklar, kvant, mars, månen,
      uppdrag, celler, molekyl, matematik, arkeologer`,
    health: `hälsa, sjukhus, sjukhuset, klinik, patienter, patient, läkare, sjuksköterskor, sjukdom,
      sjukdomar, cancer, virus, vaccin, vaccination, medicinsk, medicin, läkemedel, behandling, infektion,
      epidemi, pandemi, fetma, diabetes, vården
      | vård, symtom, kost, hjärta, blod, risk, influensa, terapi, recept, rökning, alkohol, dödsfall,
      graviditet, akuten`,
    environment: `klimat, klimatet, klimatförändringar, miljö, miljön, utsläpp, koldioxid, co2,
      växthusgaser, föroreningar, uppvärmning, naturskydd, förnybar, biologisk mångfald, avskogning,
      återvinning, fossila
      | energi, solenergi, vindkraft, skog, skogar, utrotning, torka, översvämningar, hav, havet,
      temperaturer, sopor, avfall, plast, hållbar, ekosystem, livsmiljö, is`,
    world: `krig, kriget, trupper, militär, militära, soldater, flyktingar, ambassad, diplomat,
      diplomater, diplomatiska, vapenvila, rebeller, miliser, sanktioner, förenta nationerna, fn, nato,
      utrikesminister, invasion, konflikt, fred, humanitär, gräns
      | länder, internationell, regim, attack, attacker, dödades, bomb, våld, protest, demonstranter,
      kris, bistånd, ambassadör, toppmöte, avtal, kärnvapen, huvudstad, jordbävning, gisslan`,
  }),
  uk: vocabularies({
    politics: `вибори, виборів, виборчий, парламент, верховна рада, депутати, депутат, нардеп, міністр,
      міністри, політик, політики, політика, політичний, партія, партії, уряд, опозиція, коаліція,
      виборці, виборча кампанія, референдум, прем'єр-міністр, прем’єр-міністр
      | закон, закони, законопроєкт, реформа, дебати, президент, мер, бюджет, податки,
      голосування, опитування, більшість, конституція, комітет, речник, громадяни, демократія`,
    business: `компанія, компанії, акції, акціонери, прибуток, виручка, економіка, економічний, інфляція,
      інвестори, біржа, ринок, ринки, банк, банки, дивіденди, квартал, облікова ставка, гривня, долар,
      євро, експорт, імпорт, торгівля, дефіцит, зростання, ввп, нафта, ціни
      | бізнес, промисловість, споживачі, попит, витрати, борг, кредит, фінансовий, інвестиції,
      мільярдів, мільйонів, аналітики, пропозиція, робочі місця, безробіття, працівники, завод,
      виробництво, галузь, банкрутство, бренд, пенсії, житло, рецесія, злиття, поглинання`,
    technology: `технології, технологія, програмне забезпечення, комп'ютер, комп’ютер, інтернет, цифровий,
      смартфон, телефон, застосунок, додаток, microsoft, google, apple, хакери, кібератака,
      кібербезпека, відеоігри, чип, процесор, штучний інтелект, алгоритм, користувачі, соцмережі
      | пристрій, пристрої, мережа, дані, сервер, система, програма, код, розробники, екран, ноутбук,
      робот, роботи, електроніка, камера, пошуковик, платформа, безпека, патент, телеком, інновації,
      стартап, хмара, акумулятор`,
    sports: `футбол, баскетбол, теніс, гольф, велоспорт, легка атлетика, олімпійський, олімпіада,
      чемпіонат, турнір, ліга, кубок, тренер, нападник, воротар, гол, голи, збірна, стадіон, суддя,
      пенальті, фінал, півфінал, сезон, клуб, медаль, футболіст, гравець, гравці, матч
      | команда, перемогти, переміг, перемога, поразка, нічия, чемпіон, титул, травма, тренування,
      вболівальники, спорт, спортсмен, рекорд, очки, таблиця, трансфер, контракт, трофей, хвилина,
      м'яч`,
    entertainment: `фільм, фільми, кіно, актор, акторка, актори, режисер, оскар, греммі, музика, альбом,
      співак, співачка, гурт, пісня, концерт, фестиваль, театр, мюзикл, комедія, голлівуд, зірка,
      зірки, письменник, книга, телебачення, серіал, рок, поп, репер
      | премія, номінований, номінація, церемонія, шоу, сцена, публіка, глядачі, роль, студія, продюсер,
      прем'єра, прем’єра, митець, мистецтво, галерея, виставка, література, поет, танець, опера,
      оркестр, радіо, документальний`,
    science: `науковці, науковець, вчені, наука, науковий, дослідження, дослідники, експеримент,
      лабораторія, фізика, хімія, біологія, астрономи, космос, космічний, nasa, наса, телескоп, планета,
      планети, галактика, астероїд, орбіта, зонд, скам'янілість, динозавр, генетичний, геном, днк,
      еволюція
      | відкриття, журнал, теорія, університет, професор, частинки, квантовий, марс, місія,
      клітини, молекула, математика, археологи`,
    health: `здоров'я, здоров’я, лікарня, лікарні, клініка, пацієнти, пацієнт, лікарі, лікар, медсестри,
      хвороба, хвороби, рак, вірус, вакцина, вакцинація, медичний, медицина, ліки, лікування, інфекція,
      епідемія, пандемія, ожиріння, діабет, моз
      | догляд, симптоми, харчування, серце, кров, ризик, грип, терапія, фармацевтичний, рецепт,
      куріння, алкоголь, смерті, вагітність`,
    environment: `клімат, зміна клімату, кліматичний, довкілля, навколишнє середовище, викиди, вуглець, co2,
      парникові гази, забруднення, потепління, охорона природи, відновлювані, біорізноманіття,
      вирубка лісів, переробка, викопне паливо
      | енергія, сонячна енергія, вітрова енергія, ліс, ліси, вимирання, посуха, повінь, океан, море,
      температури, сміття, відходи, пластик, сталий, екосистема, середовище існування, лід`,
    world: `війна, війни, війська, армія, військовий, військові, солдати, біженці, посольство, дипломат,
      дипломати, дипломатичний, перемир'я, перемир’я, повстанці, бойовики, санкції, оон, нато, міністр
      закордонних справ, вторгнення, конфлікт, мир, гуманітарний, кордон
      | країни, міжнародний, режим, атака, удар, удари, загинули, бомба, насильство, протест,
      протестувальники, криза, допомога, посол, саміт, договір, ядерний, столиця, землетрус, заручники`,
  }),
  // Arabic is matched without the particles written against a word (الانتخابات as انتخابات: category.ts).
  ar: vocabularies({
    politics: `انتخابات, انتخابية, برلمان, البرلمان, مجلس النواب, نواب, وزير, وزراء, سياسي, سياسية, سياسة,
      حزب, أحزاب, حكومة, معارضة, ائتلاف, ناخبين, الناخبون, حملة انتخابية, استفتاء, رئيس الوزراء
      | قانون, قوانين, إصلاح, إصلاحات, نائب, رئيس, زعيم, بلدية, ميزانية, ضرائب, تصويت, استطلاع, أغلبية,
      دستور, لجنة, متحدث, مواطنين, ديمقراطية`,
    business: `شركة, شركات, أسهم, مساهمين, أرباح, إيرادات, اقتصاد, اقتصادي, اقتصادية, تضخم, مستثمرين, بورصة,
      أسواق, بنك, بنوك, مصرف, أسعار الفائدة, فائدة, دولار, يورو, صادرات, واردات, تجارة, عجز, نمو,
      الناتج المحلي, نفط, أسعار
      | أعمال, صناعة, مستهلكين, تكاليف, ديون, قرض, قروض, مالية, استثمار, استثمارات, مليار, مليون, محللين,
      وظائف, بطالة, عمال, مصنع, إنتاج, إفلاس, معاشات, عقارات, ركود, اندماج, استحواذ, سوق`,
    technology: `تكنولوجيا, تقنية, برمجيات, حاسوب, كمبيوتر, إنترنت, رقمي, رقمية, هاتف ذكي, هواتف ذكية, تطبيق,
      تطبيقات, مايكروسوفت, جوجل, غوغل, أبل, آبل, قراصنة, هجوم إلكتروني, الأمن السيبراني, ألعاب الفيديو,
      رقائق, شرائح, معالج, الذكاء الاصطناعي, خوارزمية, مستخدمين, وسائل التواصل
      | جهاز, أجهزة, شبكة, بيانات, خادم, مطورين, شاشة, روبوت, إلكترونيات, كاميرا, محرك بحث, منصة,
      براءة اختراع, اتصالات, ابتكار, شركة ناشئة, سحابة, بطارية`,
    sports: `كرة القدم, كرة السلة, تنس, غولف, ألعاب القوى, أولمبية, أولمبياد, بطولة, دوري, كأس, مدرب, مهاجم,
      حارس مرمى, منتخب, ملعب, ركلة جزاء, نصف النهائي, المباراة النهائية, موسم, نادي, ميدالية, كأس العالم,
      لاعب, لاعبين, مباراة, مباريات
      | فريق, فوز, فاز, انتصار, هزيمة, تعادل, بطل, لقب, إصابة, تدريب, مشجعين, جماهير, رياضة, رياضي,
      رقم قياسي, نقاط, ترتيب, دقيقة, كرة`,
    entertainment: `فيلم, أفلام, سينما, ممثل, ممثلة, مخرج, أوسكار, جرامي, موسيقى, ألبوم, مغني, مغنية, فرقة,
      أغنية, أغاني, حفل, مهرجان, مسرح, كوميديا, هوليوود, نجم, نجمة, رواية, روائي, كاتب, تلفزيون, مسلسل,
      حلقة, روك, بوب
      | جائزة, ترشيح, جمهور, مشاهدين, استوديو, منتج, فنان, فنانة, فن, معرض, أدب, شاعر, رقص, أوبرا,
      أوركسترا, إذاعة, وثائقي`,
    science: `علماء, علمي, علمية, علوم, أبحاث, باحثين, الباحثون, تجربة, مختبر, فيزياء, كيمياء, علماء الفلك, فضاء,
      ناسا, تلسكوب, كوكب, كواكب, مجرة, كويكب, مدار, مسبار, أحفورة, ديناصور, جينات, الجينوم, الحمض النووي
      | اكتشاف, مجلة, دراسة, نظرية, جامعة, أستاذ, جسيمات, المريخ, القمر, خلايا, جزيء, رياضيات, علماء الآثار`,
    health: `صحة, صحية, مستشفى, مستشفيات, عيادة, مرضى, مريض, أطباء, طبيب, ممرضين, مرض, أمراض, سرطان, فيروس,
      لقاح, لقاحات, تطعيم, طبي, طبية, طب, دواء, أدوية, علاج, عدوى, وباء, جائحة, سمنة, السكري
      | رعاية, أعراض, تغذية, قلب, دم, إنفلونزا, صيدلة, وصفة طبية, تدخين, كحول, وفيات, حمل, طوارئ`,
    environment: `مناخ, تغير المناخ, بيئة, بيئي, بيئية, انبعاثات, كربون, الغازات الدفيئة, تلوث, الاحتباس الحراري,
      المتجددة, التنوع البيولوجي, إزالة الغابات, تدوير, الوقود الأحفوري
      | طاقة, الطاقة الشمسية, طاقة الرياح, غابة, غابات, انقراض, جفاف, فيضانات, محيط, بحر, درجات الحرارة,
      نفايات, بلاستيك, مستدام, مستدامة, جليد`,
    world: `حرب, قوات, جيش, عسكري, عسكرية, جنود, لاجئين, سفارة, دبلوماسي, دبلوماسيين, وقف إطلاق, هدنة,
      متمردين, ميليشيات, عقوبات, الأمم المتحدة, الناتو, وزير الخارجية, غزو, صراع, نزاع, سلام, إنسانية,
      حدود
      | دول, دولي, دولية, هجوم, هجمات, قتلى, قنبلة, عنف, احتجاج, احتجاجات, متظاهرين, أزمة, مساعدات, سفير,
      قمة, معاهدة, نووي, عاصمة, زلزال, رهائن`,
  }),
};
