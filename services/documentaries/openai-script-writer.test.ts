// The model-written script against a local server speaking OpenAI's chat-completions protocol: what is
// asked (a strict schema, the stories' own sentences, the length), and what happens to the answer: used
// when it keeps to the articles, refused for the embedded writer's script when it does not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openAiErrorBody,
  startChatCompletionsServer,
  type ChatCompletionsServer,
  type ReceivedRequest,
} from '../../test/support/chat-completions-server.ts';
import { loadOpenAiConfig } from '../../test/support/openai-config.ts';
import { faithfulScript, faithfulScriptModel, scriptRequestOf } from '../../test/support/script-model.ts';
import { createLogger } from '../runtime/logger.ts';
import { createOpenAiScriptWriter, type ScriptAnswer } from './openai-script-writer.ts';
import { checkScript, storyMaterial, writeScript, type ScriptInput, type StoryMaterial } from './script.ts';
import { checkedScriptWriter } from './script-writer.ts';
import { pickStories } from './stories.ts';
import { allArticles, now, weekAgo } from './testdata/articles.ts';
import { refusingUrl } from '../../test/support/http-test-servers.ts';

const apiKey = 'sk-test-documentary-5d2f8e1a';
const topic = 'the week in semiconductors';
const stories = pickStories(topic, allArticles, { now, maxStories: 8 });
const input: ScriptInput = { topic, from: weekAgo, to: now, stories, length: 'short' };
/** What the writer offers the model (12 sentences an article), for answers planned before the request. */
const offered = storyMaterial(stories, 12);

const faithful = (material: readonly StoryMaterial[]) =>
  faithfulScript(topic, '17 to 24 November 2026', material);
const materialOf = (request: ReceivedRequest) => scriptRequestOf(request).stories;

const reply = (answer: ScriptAnswer) => ({ content: JSON.stringify(answer) });

let server: ChatCompletionsServer;
let lines: string[];
beforeEach(async () => {
  server = await startChatCompletionsServer({ apiKey, respond: faithfulScriptModel });
  lines = [];
});
afterEach(async () => {
  await server.close();
});

function writer(env: Record<string, string> = {}) {
  const logger = createLogger('script-test', 'debug', { write: (line: string) => void lines.push(line) });
  const config = loadOpenAiConfig({
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: apiKey,
    OPENAI_TIMEOUT_MS: '5000',
    OPENAI_MAX_RETRIES: '2',
    ...env,
  });
  return checkedScriptWriter(createOpenAiScriptWriter({ config, logger }), logger);
}

const warnings = () =>
  lines
    .map((line) => JSON.parse(line) as { level: number; msg: string; problems?: string[]; error?: string })
    .filter((l) => l.level === 40);

describe('a script written by the model', () => {
  it('asks with a strict schema for the stories, their own sentences, the period and the length', async () => {
    const { script, writer: by } = await writer().write(input);

    expect(by).toBe('openai/gpt-4o-mini');
    const request = server.requests[0]!;
    expect(request.body?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'documentary_script', strict: true },
    });
    const system = String(request.body?.messages?.[0]?.content);
    expect(system).toContain('Never add a fact');
    expect(system).toContain('about 300 words'); // short: 2 minutes at 150 words a minute
    expect(system).toContain('17 to 24 November 2026');
    const material = materialOf(request);
    expect(material.map((s) => s.number)).toEqual(stories.map((_, i) => i + 1));
    expect(material[0]!.articles.map((a) => a.id)).toEqual(stories[0]!.articles.map((a) => a.id));
    expect(material[0]!.articles[0]!.sentences.length).toBeGreaterThan(1);

    // The model's words, with the stories' titles and citations.
    expect(script.segments.map((s) => s.kind)).toEqual([
      'intro',
      'story',
      'transition',
      'story',
      'transition',
      'story',
      'outro',
    ]);
    const first = script.segments[1]!;
    expect(first.sentences[0]).toMatch(/^According to /);
    expect(first.articleIds).toEqual(stories[0]!.articles.map((a) => a.id));
    expect(first.title).toBe(stories[0]!.lead.title);
    expect(script.segments.at(-1)!.articleIds).toEqual(
      stories.slice(0, 3).flatMap((s) => s.articles.map((a) => a.id)),
    );
    expect(checkScript(script, stories, input)).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it('is refused for the embedded script when it gives a figure its articles do not', async () => {
    server.plan({
      content: JSON.stringify({
        ...faithful(offered),
        stories: faithful(offered).stories.map((story, i) =>
          i === 1
            ? { ...story, sentences: [...story.sentences, 'Shares fell 12 percent on the news.'] }
            : story,
        ),
      }),
    });
    const { script, writer: by } = await writer().write(input);

    expect(by).toBe('embedded');
    expect(script).toEqual(writeScript(input));
    const [warning] = warnings();
    expect(warning!.msg).toBe('script not usable; the embedded writer writes it instead');
    expect(warning!.problems!.join('\n')).toContain('gives a figure its articles do not (12)');
  });

  it('is refused when a story sentence says what its articles do not', async () => {
    const answer = faithful(offered);
    answer.stories[0]!.sentences.push(
      'Analysts warned that the dispute could spread to smartphones and cars.',
    );
    server.plan(reply(answer));
    expect((await writer().write(input)).writer).toBe('embedded');
    expect(warnings()[0]!.problems!.join('\n')).toMatch(/sentence 3 is not supported by its articles/);
  });

  it('is refused when the intro brings news of its own', async () => {
    const answer = faithful(offered);
    answer.intro.push('Chipmakers lobbied the White House for a tariff exemption this week.');
    server.plan(reply(answer));
    expect((await writer().write(input)).writer).toBe('embedded');
    expect(warnings()[0]!.problems!.join('\n')).toMatch(
      /segment 1 \(intro .*\), sentence 2 says what neither/,
    );
  });

  it.each([
    [
      'a story that was not given',
      (a: ScriptAnswer) => ({ ...a, stories: [{ ...a.stories[0]!, number: 99 }] }),
      /story 99 does not exist/,
    ],
    [
      'the same story twice',
      (a: ScriptAnswer) => ({ ...a, stories: [a.stories[0]!, a.stories[0]!] }),
      /story 1 is told twice/,
    ],
    ['no story', (a: ScriptAnswer) => ({ ...a, stories: [] }), /tells no story/],
    ['a wrong shape', (a: ScriptAnswer) => ({ ...a, outro: 'The end.' }), /does not match the schema: outro/],
  ])('is refused for %s', async (_, change, reason) => {
    server.plan(reply(change(faithful(offered)) as ScriptAnswer));
    expect((await writer().write(input)).writer).toBe('embedded');
    expect(warnings()[0]!.error).toMatch(reason);
  });

  it('is refused when it runs far past the length', async () => {
    const answer = faithful(offered);
    const padding =
      'According to BBC News, the US Commerce Department has barred Nvidia from selling its H30 artificial intelligence chips to China without a licence.';
    answer.stories[0]!.sentences.push(...Array.from({ length: 20 }, () => padding));
    server.plan(reply(answer));
    expect((await writer().write(input)).writer).toBe('embedded');
    expect(warnings()[0]!.error).toMatch(/the script has \d+ words; a short documentary has at most 450/);
  });

  it('retries a 429 and then uses the answer', async () => {
    server.plan({
      status: 429,
      headers: { 'retry-after': '0' },
      body: openAiErrorBody('slow down', 'rate_limit_exceeded'),
    });
    const { writer: by } = await writer().write(input);
    expect(by).toBe('openai/gpt-4o-mini');
    expect(server.requests).toHaveLength(2);
  });

  it('falls back when the server cannot be reached, without the key in anything logged', async () => {
    const refusing = await refusingUrl('/v1');
    const { writer: by } = await writer({ OPENAI_BASE_URL: refusing, OPENAI_MAX_RETRIES: '0' }).write(input);
    expect(by).toBe('embedded');
    const fallback = warnings().find((w) => w.msg.startsWith('script not usable'));
    expect(fallback!.error).toContain(`could not reach ${refusing} for documentary script`);
    expect(lines.join('\n')).not.toContain(apiKey.slice(8));
  });
});
