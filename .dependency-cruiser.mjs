// The floors of services/ (docs/architecture.md, "Floors"), checked by `npm run lint`:
//
//   processes  api, poller, projector, enricher, narrator, documentarian, matcher, clusterer, dispatcher, demo,
//              provision
//              (one deployable process or command each; nobody imports them)
//   domains    clients, sources, feeds, intelligence, speech, audio, documentaries, monitors, webhooks,
//              stories, search, websub
//              (what a concept is and the commands on it; used by processes and CLIs)
//   runtime    config, logging, Kafka, registry codec, ClickHouse, outbound HTTP (the ground floor)
//
// A file may import its own folder and the floors below it, never a neighbour process nor a floor above.
// Tests beside the code follow the same rules; only test/ may reach into everything.
const processes = [
  'api',
  'poller',
  'projector',
  'enricher',
  'narrator',
  'documentarian',
  'matcher',
  'clusterer',
  'dispatcher',
  'demo',
  'provision',
];
const domains = [
  'clients',
  'sources',
  'feeds',
  'intelligence',
  'speech',
  'audio',
  'documentaries',
  'monitors',
  'webhooks',
  'stories',
  'search',
  'websub',
  'narration',
];
const oneOf = (names) => `(${names.join('|')})`;

/**
 * The one list of deliberate exceptions: files allowed to cross a floor, each with the reason. Before
 * adding an entry, try moving the shared piece down a floor instead.
 * Shape: { file: '^services/<folder>/<file>\\.ts$', reason: '...' }
 */
const exceptions = [
  {
    file: '^services/runtime/settings-catalog\\.ts$',
    reason:
      "Writes docs/configuration.md from every process's configuration shape (`npm run generate:config-docs`): " +
      'it reads their config.ts files, runs none of them, and nothing but its test imports it. The shapes ' +
      'belong to their processes, so there is no lower floor to move them to.',
  },
];
const excepted = exceptions.map((e) => e.file);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'runtime-is-the-ground-floor',
      comment: 'services/runtime/ is shared by every process: it must not depend on any of them.',
      severity: 'error',
      from: { path: '^services/runtime/', pathNot: excepted },
      to: { path: '^services/', pathNot: '^services/runtime/' },
    },
    {
      name: 'no-process-into-another',
      comment:
        'A process imports its own folder, a domain folder and runtime/, never another process: ' +
        'move what two of them share into a domain folder or runtime/.',
      severity: 'error',
      from: { path: `^services/${oneOf([...processes, ...domains])}/`, pathNot: excepted },
      to: { path: `^services/${oneOf(processes)}/`, pathNot: '^services/$1/' },
    },
    {
      name: 'domains-below-processes',
      comment: 'A domain folder is shared by processes and CLIs; it cannot depend on a process.',
      severity: 'error',
      from: { path: `^services/${oneOf(domains)}/`, pathNot: excepted },
      to: { path: `^services/${oneOf(processes)}/` },
    },
    {
      name: 'every-folder-has-a-floor',
      comment:
        'A new folder under services/ must be named in .dependency-cruiser.mjs as a process or a domain.',
      severity: 'error',
      from: { path: '^services/' },
      to: { path: `^services/(?!${oneOf([...processes, ...domains, 'runtime'])}/)` },
    },
    {
      name: 'no-entry-point-imports',
      comment: 'main.ts files run a process or a command; import what they wire, not them.',
      severity: 'error',
      from: {},
      to: { path: '^services/[^/]+/main\\.ts$' },
    },
    {
      name: 'production-code-without-tests',
      comment: 'What production runs never imports test code (test/ or *.test.ts).',
      severity: 'error',
      from: { path: '^services/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^test/', '\\.test\\.ts$'] },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle makes start-up order depend on who is imported first.',
      severity: 'error',
      from: { path: '^services/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^node_modules', '^\\.stack'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json', '.d.ts'],
    },
  },
};
