// `npm run generate:config-docs`: writes docs/configuration.md from every process's configuration
// shape. The catalog below is the one place that knows which process reads which shape; a unit test
// fails when the file is stale, or when a setting has no description.
//
// This file reaches up into the process folders, which runtime/ otherwise never does: it reads their
// shapes (plain data) and runs none of them, and nothing but its test imports it. It is the one entry
// in the exception list of .dependency-cruiser.mjs.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { apiEnv } from '../api/config.ts';
import { demoEnv } from '../demo/config.ts';
import { dispatcherEnv } from '../dispatcher/config.ts';
import { enricherEnv } from '../enricher/config.ts';
import { narratorEnv } from '../narrator/config.ts';
import { documentarianEnv } from '../documentarian/config.ts';
import { matcherEnv } from '../matcher/config.ts';
import { clustererEnv } from '../clusterer/config.ts';
import { pollerEnv } from '../poller/config.ts';
import { projectorEnv } from '../projector/config.ts';
import { provisionEnv } from '../provision/config.ts';
import { renderConfigurationReference, type SettingReader } from './config-docs.ts';
import { infrastructureEnv } from './config.ts';

export const configurationFile = fileURLToPath(new URL('../../docs/configuration.md', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Every process and command that calls loadConfig, with the shape it loads. */
export const settingReaders: readonly SettingReader[] = [
  { name: 'api', command: 'npm run api', shape: apiEnv },
  { name: 'poller', command: 'npm run poller', shape: pollerEnv },
  { name: 'projector', command: 'npm run projector', shape: projectorEnv },
  { name: 'enricher', command: 'npm run enricher', shape: enricherEnv },
  { name: 'narrator', command: 'npm run narrator', shape: narratorEnv },
  { name: 'documentarian', command: 'npm run documentarian', shape: documentarianEnv },
  { name: 'matcher', command: 'npm run matcher', shape: matcherEnv },
  { name: 'clusterer', command: 'npm run clusterer', shape: clustererEnv },
  { name: 'dispatcher', command: 'npm run dispatcher', shape: dispatcherEnv },
  { name: 'provision', command: 'npm run provision', shape: provisionEnv },
  { name: 'demo', command: 'npm run demo', shape: demoEnv },
  { name: 'sources', command: 'npm run sources', shape: infrastructureEnv },
  { name: 'clients', command: 'npm run clients', shape: infrastructureEnv },
  { name: 'webhooks', command: 'npm run webhooks', shape: infrastructureEnv },
];

export const renderConfigurationFile = () =>
  renderConfigurationReference(settingReaders, configurationFile, { repositoryRoot });

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(configurationFile, await renderConfigurationFile());
  console.log(`wrote ${configurationFile}`);
}
