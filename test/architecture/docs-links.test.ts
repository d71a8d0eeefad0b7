// The documents of the repository point only at what exists in it: every relative link resolves to a
// file (and its #anchor to a heading there), every path quoted as code names a file or folder that
// exists, and nothing points outside the repository. Code that points into docs/ (`docs/x.md,
// "Heading"`) names a document and a heading that exist, so renaming a section cannot orphan it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const skipped = new Set(['node_modules', '.stack', '.git', 'coverage']);

function filesUnder(directory: string, wanted: RegExp): string[] {
  return readdirSync(directory).flatMap((name) => {
    if (skipped.has(name)) return [];
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return filesUnder(path, wanted);
    return wanted.test(name) ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The text without fenced code blocks, where links and headings are not links and headings. */
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

const documents = filesUnder(root, /\.md$/).map((file) => ({
  file,
  name: relative(root, file),
  text: readFileSync(file, 'utf8'),
}));

const repositoryPath = /^(services|test|docs|schemas|projections|docker|\.ci)\/[^\s<>*{}…]*$/;
/** A placeholder in a path (`NNNN_name.sql`) makes it a pattern, not a path. */
const placeholder = /NNNN/;
/** The guides, whose paths must be this repository's (a data set's provenance note may name another's). */
const guides = documents.filter((d) => /^(README|CONTRIBUTING)\.md$|^docs\//.test(d.name));

describe('the documents of the repository', () => {
  it('are found (README, CONTRIBUTING and docs/ among them)', () => {
    const names = documents.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/architecture.md']));
  });

  it('link only to files and headings that exist in the repository', () => {
    const broken: string[] = [];
    for (const { file, name, text } of documents) {
      const prose = withoutCode(text).replace(/`[^`\n]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // http:, https:, mailto:
        const [path, anchor] = target!.split('#', 2) as [string, string | undefined];
        const resolved = path === '' ? file : resolve(dirname(file), decodeURI(path));
        if (relative(root, resolved).startsWith('..')) {
          broken.push(`${name}: ${target} points outside the repository`);
        } else if (!existsSync(resolved)) {
          broken.push(`${name}: ${target} does not exist`);
        } else if (anchor !== undefined && resolved.endsWith('.md')) {
          if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
            broken.push(`${name}: ${target} has no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('name as code only paths that exist (README, CONTRIBUTING, docs/)', () => {
    const missing: string[] = [];
    for (const { name, text } of guides) {
      for (const [, code] of text.matchAll(/`([^`\n]+)`/g)) {
        const path = code!.replace(/[.,:;]$/, '');
        if (repositoryPath.test(path) && !placeholder.test(path) && !existsSync(join(root, path)))
          missing.push(`${name}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('never point at files beside the repository', () => {
    const outside = documents.filter(({ text }) => /\.\.\/shared\b|\/work\/shared\b/.test(text));
    expect(outside.map((d) => d.name)).toEqual([]);
  });

  it('are pointed at by code only where the document and its heading exist', () => {
    const self = fileURLToPath(import.meta.url); // its comments show the forms with made-up names
    const code = filesUnder(root, /\.(ts|mjs|js|sql|sh|xml|ya?ml)$/).filter((file) => file !== self);
    const broken: string[] = [];
    for (const file of code) {
      const text = readFileSync(file, 'utf8');
      // `docs/x.md, "Heading"` or `docs/x.md ("Heading"`, possibly across a comment's line break.
      for (const [, document, heading] of text.matchAll(
        /\bdocs\/([\w-]+\.md)[\s,(]*(?:(?:\/\/|\*|#)\s*)?"([^"\n]+)"/g,
      )) {
        const path = join(root, 'docs', document!);
        if (!existsSync(path)) broken.push(`${relative(root, file)}: docs/${document} does not exist`);
        else if (!anchorsOf(readFileSync(path, 'utf8')).has(slug(heading!)))
          broken.push(`${relative(root, file)}: docs/${document} has no heading "${heading}"`);
      }
      for (const [, document] of text.matchAll(/\bdocs\/([\w-]+\.(?:md|json))/g)) {
        if (!existsSync(join(root, 'docs', document!)))
          broken.push(`${relative(root, file)}: docs/${document} does not exist`);
      }
    }
    expect(broken).toEqual([]);
  });
});
