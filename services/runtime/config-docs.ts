// docs/configuration.md, written from the configuration shapes themselves: for each variable, which
// processes read it, its default, what it accepts and what it does, all taken from the zod schema that
// validates it (loadConfig), so the reference cannot say something the code does not do. Pure: the
// list of readers comes in (settings-catalog.ts names the real ones).
import { z } from 'zod';
import { isSecretSetting, type EnvShape } from './config.ts';

export interface SettingReader {
  /** Short name used in the tables: api, poller, ... */
  name: string;
  /** How it is started, e.g. `npm run api`. */
  command: string;
  shape: EnvShape;
}

export interface SettingFacts {
  /** The value an unset variable gets, as it would be written in the environment; null: none. */
  default: string | null;
  accepted: string;
  description: string | null;
  secret: boolean;
}

export interface ReferenceOptions {
  /** Absolute path of the repository: a default under it (a log directory) is shown relative to it. */
  repositoryRoot?: string;
}

/** What one variable's schema says about it. */
export function settingFacts(name: string, schema: z.ZodType, options: ReferenceOptions = {}): SettingFacts {
  // The input side is what an operator writes; refinements and transforms have no JSON Schema form.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    default?: string | number | boolean;
    description?: string;
    accepted?: string;
    enum?: unknown[];
  };
  let fallback = json.default === undefined ? null : String(json.default);
  if (fallback !== null && options.repositoryRoot && fallback.startsWith(options.repositoryRoot)) {
    fallback = fallback.slice(options.repositoryRoot.length);
  }
  return {
    default: fallback,
    accepted: json.accepted ?? (json.enum ? `one of ${json.enum.join(', ')}` : 'text'),
    description: json.description ?? null,
    secret: isSecretSetting(name),
  };
}

interface Row {
  name: string;
  readers: string[];
  /** Facts per reader, in reader order. */
  facts: Map<string, SettingFacts>;
}

function rowsOf(readers: readonly SettingReader[], options: ReferenceOptions): Row[] {
  const rows = new Map<string, Row>();
  for (const reader of readers) {
    for (const [name, schema] of Object.entries(reader.shape)) {
      const row: Row = rows.get(name) ?? { name, readers: [], facts: new Map() };
      row.readers.push(reader.name);
      row.facts.set(reader.name, settingFacts(name, schema, options));
      rows.set(name, row);
    }
  }
  return [...rows.values()];
}

const code = (text: string) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

function shownDefault(facts: SettingFacts): string {
  if (facts.default === null) return '(none)';
  if (facts.default === '') return '(empty)';
  // A secret's default would be a credential in a public document.
  if (facts.secret) return '(set, not shown)';
  return code(facts.default);
}

/** The distinct values of a fact among the readers of a variable, each with who reads it so. */
function readings(row: Row, show: (facts: SettingFacts) => string): { value: string; readers: string[] }[] {
  const byValue = new Map<string, string[]>();
  for (const [reader, facts] of row.facts) {
    const value = show(facts);
    byValue.set(value, [...(byValue.get(value) ?? []), reader]);
  }
  return [...byValue].map(([value, readers]) => ({ value, readers }));
}

/** One line for a fact the readers may disagree on: the value, or each value with its readers. */
function agreed(row: Row, show: (facts: SettingFacts) => string): string {
  const all = readings(row, show);
  if (all.length === 1) return all[0]!.value;
  return all.map(({ value, readers }) => `${value} (${readers.join(', ')})`).join('; ');
}

function settingSection(row: Row, showReaders: boolean): string[] {
  const secret = [...row.facts.values()].some((f) => f.secret);
  const descriptions = readings(row, (f) => f.description ?? '(no description)');
  return [
    `### ${code(row.name)}`,
    '',
    ...(showReaders ? [`- read by: ${row.readers.join(', ')}`] : []),
    `- default: ${agreed(row, shownDefault)}`,
    `- accepts: ${agreed(row, (f) => f.accepted)}`,
    ...(secret ? ['- secret: its value is never printed, in an error message or here'] : []),
    '',
    ...(descriptions.length === 1
      ? [descriptions[0]!.value]
      : descriptions.flatMap(({ value, readers }) => [`${readers.join(', ')}: ${value}`, ''])),
    '',
  ];
}

/** The reference as Markdown, before formatting. */
export function configurationReference(
  readers: readonly SettingReader[],
  options: ReferenceOptions = {},
): string {
  const rows = rowsOf(readers, options);
  const everyone = rows.filter((r) => r.readers.length === readers.length);
  const shared = new Set(everyone.map((r) => r.name));
  const others = rows.filter((r) => !shared.has(r.name)).sort((a, b) => a.name.localeCompare(b.name));
  return [
    '# Configuration',
    '',
    '<!-- Generated by `npm run generate:config-docs` from the configuration shapes (services/runtime/settings-catalog.ts',
    "lists them). Do not edit: change a setting's schema (its `.describe()`) and regenerate. -->",
    '',
    'Every setting is an environment variable, read and validated once when a process starts. An invalid',
    'value stops the process with exit code 78 and a message naming each bad variable and what is wrong',
    "with it (a secret's value is never shown). An empty value counts as unset, so `FOO=` in a compose file",
    'falls back to the default. `npm run demo` passes its environment on to the services it starts, so',
    'their settings apply there too.',
    '',
    '## Who reads what',
    '',
    `Every process and command reads the shared settings (${everyone.map((r) => code(r.name)).join(', ')}); besides them:`,
    '',
    ...readers.map((reader) => {
      const own = Object.keys(reader.shape)
        .filter((name) => !shared.has(name))
        .sort();
      return `- ${reader.name} (${code(reader.command)}): ${own.length === 0 ? 'nothing else' : own.map(code).join(', ')}`;
    }),
    '',
    '## Shared by every process',
    '',
    ...everyone.flatMap((row) => settingSection(row, false)),
    '## The other settings',
    '',
    'Where processes read a variable differently, each reading names the processes that read it so.',
    '',
    ...others.flatMap((row) => settingSection(row, true)),
    '## Not in these shapes',
    '',
    'The stack command reads its own variables (ports and directories; see',
    '[operations](operations.md#the-local-stack)), and the benchmarks read `BENCH_*` variables (see',
    '[benchmarks](benchmarks.md)).',
    '',
  ].join('\n');
}

/** The reference formatted as `prettier --check` expects it. */
export async function renderConfigurationReference(
  readers: readonly SettingReader[],
  file: string,
  options: ReferenceOptions = {},
): Promise<string> {
  // Only the generator and its test format; no process loads prettier.
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(configurationReference(readers, options), { ...config, filepath: file });
}
