import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configurationReference, settingFacts, type SettingReader } from './config-docs.ts';
import { boolean, commaList, infrastructureEnv, integer, oneOf, text } from './config.ts';

describe('settingFacts', () => {
  it('reads the default as it would be written in the environment, and what the value type accepts', () => {
    expect(settingFacts('PARTITIONS', integer(6, 1, 1000).describe('Partitions.'))).toEqual({
      default: '6',
      accepted: 'integer from 1 to 1000',
      description: 'Partitions.',
      secret: false,
    });
    expect(settingFacts('KAFKA_BROKERS', infrastructureEnv.KAFKA_BROKERS).default).toBe('127.0.0.1:9092');
    expect(settingFacts('FLAG', boolean(false)).default).toBe('false');
    expect(settingFacts('LIST', commaList()).default).toBe('');
    expect(settingFacts('MODE', oneOf(['a', 'b'], 'b')).accepted).toBe('one of a, b');
  });

  it('keeps what a setting says about itself over what its value type says', () => {
    const skip = commaList()
      .refine((list) => list.length < 3)
      .meta({ accepted: 'a subset of x, y', description: 'Steps to skip.' });
    expect(settingFacts('SKIP', skip)).toMatchObject({
      accepted: 'a subset of x, y',
      description: 'Steps to skip.',
    });
  });

  it('has no default for an optional setting and flags secrets by name', () => {
    expect(settingFacts('SERVICE_API_KEY', z.string().optional())).toMatchObject({
      default: null,
      secret: true,
    });
  });

  it('shows a default under the repository relative to it', () => {
    expect(settingFacts('LOG_DIR', text('/repo/.stack/logs'), { repositoryRoot: '/repo/' }).default).toBe(
      '.stack/logs',
    );
  });
});

describe('configurationReference', () => {
  const readers: SettingReader[] = [
    {
      name: 'api',
      command: 'npm run api',
      shape: {
        LOG_LEVEL: infrastructureEnv.LOG_LEVEL,
        TIMEOUT_MS: integer(15_000, 500, 120_000).describe('The check fetch.'),
        API_TOKEN_KEYS: text('kid:c2VjcmV0').describe('Signing keys.'),
      },
    },
    {
      name: 'poller',
      command: 'npm run poller',
      shape: {
        LOG_LEVEL: infrastructureEnv.LOG_LEVEL,
        TIMEOUT_MS: integer(20_000, 500, 300_000).describe('The whole fetch.'),
      },
    },
    { name: 'sources', command: 'npm run sources', shape: { LOG_LEVEL: infrastructureEnv.LOG_LEVEL } },
  ];
  const markdown = configurationReference(readers);

  it('lists the settings every reader shares apart from those only some read', () => {
    expect(markdown).toMatch(/Every process and command reads the shared settings \(`LOG_LEVEL`\)/);
    expect(markdown).toContain('- poller (`npm run poller`): `TIMEOUT_MS`');
    expect(markdown).toContain('- read by: api, poller');
    expect(markdown).toContain('- sources (`npm run sources`): nothing else');
  });

  it('names the reader of each value where readers disagree', () => {
    expect(markdown).toContain('- default: `15000` (api); `20000` (poller)');
    expect(markdown).toContain('api: The check fetch.');
    expect(markdown).toContain('poller: The whole fetch.');
  });

  it('never prints the default of a secret', () => {
    expect(markdown).not.toContain('c2VjcmV0');
    expect(markdown).toContain('- default: (set, not shown)');
  });
});
