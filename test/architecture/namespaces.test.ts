// TOPIC_PREFIX namespaces every topic and consumer group (issue 21) only if no code names a topic by a
// literal or joins a group without the namespace: topic names come from topics.ts (topicNames,
// topicCatalog), and every KafkaJS consumer is made with consumerGroup(…) as its group id.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The code of a file without its comments (line and block), so prose may name topics. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

const services = sources(join(root, 'services')).map((path) => ({
  file: relative(root, path),
  code: code(readFileSync(path, 'utf8')),
}));

describe('namespaces reach every topic and consumer group', () => {
  it('names no topic by a literal outside the catalog', () => {
    const literal = /['"`]news\.[a-z-]+\.v\d/;
    const offenders = services
      .filter(
        ({ file }) =>
          !['services/runtime/kafka/topics.ts', 'services/runtime/events/asyncapi.ts'].includes(file),
      )
      .filter(({ file }) => !file.endsWith('types.generated.ts'))
      .filter(({ code }) => literal.test(code))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('joins every consumer group through consumerGroup()', () => {
    const offenders: string[] = [];
    for (const { file, code } of services) {
      for (const match of code.matchAll(/\.consumer\(\{\s*groupId:?\s*([^,\n}]*)/g)) {
        const value = match[1]!.trim() || 'groupId'; // `{ groupId }`: a variable of that name
        // Either the call itself, or a variable the file assigned from it.
        const namespaced =
          value.startsWith('consumerGroup(') ||
          (/^\w+$/.test(value) && new RegExp(`\\b${value} = consumerGroup\\(`).test(code));
        if (!namespaced) offenders.push(`${file}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
