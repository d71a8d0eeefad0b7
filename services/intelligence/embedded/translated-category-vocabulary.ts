// What each category's news talks about in Spanish, French, German, Italian, Portuguese and Russian:
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
};
