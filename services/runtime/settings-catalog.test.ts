import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingFacts } from './config-docs.ts';
import { configurationFile, renderConfigurationFile, settingReaders } from './settings-catalog.ts';

describe('docs/configuration.md', () => {
  it('is current with the configuration shapes', async () => {
    const current = readFileSync(configurationFile, 'utf8');
    const generated = await renderConfigurationFile();
    expect(
      current === generated,
      'docs/configuration.md is stale: run `npm run generate:config-docs` and commit the result',
    ).toBe(true);
  });

  it('has a description for every setting of every process', () => {
    const undescribed = settingReaders.flatMap((reader) =>
      Object.entries(reader.shape)
        .filter(([name, schema]) => settingFacts(name, schema).description === null)
        .map(([name]) => `${reader.name}: ${name}`),
    );
    expect(undescribed, "describe these settings with .describe('…') on their schema").toEqual([]);
  });
});
