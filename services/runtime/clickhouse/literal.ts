// The one door through which values reach SQL. ClickHouse 18.16 (Debian) has
// no server-side query parameters, so every value is written as a literal by
// these functions and nothing else; identifiers are checked, never escaped.

/** Escapes a string for use inside single quotes in ClickHouse SQL. */
function escapeString(value: string): string {
  let out = '';
  for (const ch of value) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '\0':
        out += '\\0';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      default:
        out += ch;
    }
  }
  return `'${out}'`;
}

/**
 * Whether a number is a time a ClickHouse DateTime holds, in Unix seconds: 1970 to 2106 (32 bits,
 * unsigned). A cursor carrying another would be wrapped round by toDateTime and page from anywhere.
 */
export const isDateTimeSeconds = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffff_ffff;

/** A DateTime as ClickHouse reads it: 'YYYY-MM-DD hh:mm:ss' in UTC (seconds precision, as 18.16 has). */
export function dateTimeText(value: Date | number): string {
  const date = typeof value === 'number' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new Error('cannot write an invalid Date as a SQL literal');
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export type SqlValue = string | number | bigint | boolean | null | Date | readonly SqlValue[];

/**
 * Renders a JavaScript value as a ClickHouse literal:
 * strings quoted and escaped, finite numbers as numbers, booleans as 1/0,
 * null as NULL, dates as a UTC 'YYYY-MM-DD hh:mm:ss' string, arrays as [..].
 */
export function literal(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return escapeString(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as a SQL literal`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return escapeString(dateTimeText(value));
  if (Array.isArray(value)) return `[${value.map((v: SqlValue) => literal(v)).join(', ')}]`;
  throw new Error(`cannot write a ${typeof value} as a SQL literal`);
}

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks a table/column/database name; these are never built from user input. */
export function identifier(name: string): string {
  if (!identifierPattern.test(name)) throw new Error(`"${name}" is not a valid SQL identifier`);
  return name;
}

/**
 * Tagged template: interpolated values become literals.
 *   sql`SELECT * FROM articles WHERE id = ${id}`
 * Use identifier() for names: sql`SELECT 1 FROM ${raw(identifier(table))}`.
 */
export function sql(strings: TemplateStringsArray, ...values: (SqlValue | RawSql)[]): string {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += (v instanceof RawSql ? v.text : literal(v)) + (strings[i + 1] ?? '');
  });
  return out;
}

export class RawSql {
  constructor(readonly text: string) {}
}

/** Marks already-safe SQL (a checked identifier, a fragment built with sql``) for interpolation. */
export const raw = (text: string) => new RawSql(text);

/** A parenthesised list of literals for `x IN ${inList(values)}` (arrays render as [..], which IN does not take). */
export function inList(values: readonly SqlValue[]): RawSql {
  if (values.length === 0) throw new Error('an IN list needs at least one value');
  return new RawSql(`(${values.map((v) => literal(v)).join(', ')})`);
}
