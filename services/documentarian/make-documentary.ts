// One documentary, from the step its newest event names to `ready` (or `failed`): gathering → scripting →
// narrating → assembling. Each step begins by appending a `progressed` event that carries what the steps
// before it found (the cited articles, then the script), so after a crash the documentary resumes at the
// step it was in, from that event alone:
// - gathering reads the read models and picks the stories; a topic with none ends `failed` no_articles;
// - scripting writes the script from the stories (the cited articles are read again by id);
// - narrating speaks each sentence on its own through the synthesizer, which stores every sentence under
//   its content key: a sentence spoken before a crash is found, not spoken again, and each sentence's
//   duration is exact, which times the transcript;
// - assembling joins the sentences (pauses between sentences and longer ones between segments),
//   normalises the loudness, encodes with one chapter per segment and stores the audio, the WebVTT and
//   the JSON transcripts, content-addressed too. Resuming at assembling narrates again from the cache.
import type { AudioStore } from '../audio/audio-store.ts';
import { audioKey } from '../audio/audio-key.ts';
import {
  assemble,
  chaptersOf,
  encodeWithChapters,
  normaliseLoudness,
  type SpokenSegment,
} from '../documentaries/assembly.ts';
import {
  defaultDocumentaryLanguage,
  defaultMaxArticles,
  type DocumentaryLength,
} from '../documentaries/documentary-request.ts';
import type { ScriptSegment } from '../documentaries/script.ts';
import type { checkedScriptWriter } from '../documentaries/script-writer.ts';
import { citedWithin, pickStories, type CandidateArticle, type Story } from '../documentaries/stories.ts';
import { transcriptJson, webVtt } from '../documentaries/transcript.ts';
import type { ClickHouse } from '../runtime/clickhouse/client.ts';
import type { Documentary, DocumentaryArticle } from '../runtime/events/types.generated.ts';
import type { Logger } from '../runtime/logger.ts';
import { readWav } from '../speech/pcm.ts';
import type { Synthesis } from '../speech/synthesis.ts';
import type { Voice } from '../speech/voice.ts';
import { gatherArticles, readArticlesById } from './gathering.ts';

export interface MakeDocumentaryDependencies {
  clickhouse: ClickHouse;
  synthesis: Synthesis;
  /** The enrichment provider's writer, checked, with the embedded writer to fall back on. */
  scriptWriter: ReturnType<typeof checkedScriptWriter>;
  store: AudioStore;
  /** Appends the next event of the documentary. */
  append: (event: Documentary) => Promise<void>;
  /** The unsigned address of a stored file (`<API_PUBLIC_URL>/v1/audio/<key>`). */
  address: (key: string) => string;
  /** Called between sentences: long work must tell the consumer group it is alive. */
  heartbeat: () => Promise<void>;
  /** Whether the documentary was cancelled (asked before each step and, at most every second, sentence). */
  cancelled: (documentaryId: string) => Promise<boolean>;
  /** Integrated loudness of the finished programme. */
  targetLufs: number;
  /** Candidates read from the read models at most. */
  candidateLimit: number;
  logger: Logger;
  clock?: () => number;
}

/** Where each step's progress starts; narrating moves between its own start and assembling's. */
const progressAt = { gathering: 0.02, scripting: 0.1, narrating: 0.15, assembling: 0.9 } as const;
/** Changing the assembly (pauses, loudness, encoding) changes every documentary's keys. */
const pipelineVersion = 'documentary-1';

export type Step = keyof typeof progressAt;

/** The documentary was cancelled while being made: the work stops where it is. */
export class DocumentaryCancelled extends Error {
  constructor(readonly documentaryId: string) {
    super(`documentary ${documentaryId} was cancelled`);
    this.name = 'DocumentaryCancelled';
  }
}

/** The step to go on with, given the documentary's newest event (null: nothing to do). */
export function stepOf(event: Documentary): Step | null {
  if (event.status === 'requested') return 'gathering';
  if (event.status !== 'progressed') return null;
  const stage = event.stage as Step | null;
  if (stage === 'scripting' && event.articles.length > 0) return 'scripting';
  if ((stage === 'narrating' || stage === 'assembling') && event.segments.length > 0) return 'narrating';
  // A step whose event lacks what it needs (an older writer) starts over from gathering.
  return 'gathering';
}

export async function makeDocumentary(from: Documentary, deps: MakeDocumentaryDependencies): Promise<void> {
  const clock = deps.clock ?? Date.now;
  let state: Documentary = from;
  let askedAt = -Infinity;
  /** Throws DocumentaryCancelled once the documentary is cancelled; `often`: asks at most every second. */
  const stopIfCancelled = async (often = false) => {
    if (often && clock() - askedAt < 1_000) return;
    askedAt = clock();
    if (await deps.cancelled(from.documentary_id)) throw new DocumentaryCancelled(from.documentary_id);
  };
  const advance = async (changes: Partial<Documentary>) => {
    await stopIfCancelled();
    state = { ...state, ...changes, occurred_at: clock() };
    await deps.append(state);
  };
  const fail = (code: string, reason: string) =>
    advance({ status: 'failed', stage: null, progress: null, failure_code: code, failure_reason: reason });

  const length = (state.length ?? 'medium') as DocumentaryLength;
  const language = state.language ?? defaultDocumentaryLanguage;
  const period = { from: new Date(state.period_from ?? 0), to: new Date(state.period_to ?? clock()) };
  let step = stepOf(state);
  if (step === null) return;

  let stories: Story[] = [];
  if (step === 'gathering') {
    await advance({ status: 'progressed', stage: 'gathering', progress: progressAt.gathering });
    const candidates = await gatherArticles(deps.clickhouse, {
      tenantId: state.tenant_id,
      topic: state.topic,
      sources: state.sources,
      language,
      from: period.from,
      to: period.to,
      limit: deps.candidateLimit,
    });
    stories = citedWithin(
      pickStories(state.topic, candidates, { now: period.to, maxStories: defaultMaxArticles[length] }),
      state.max_articles ?? defaultMaxArticles[length],
    );
    if (stories.length === 0) {
      const where =
        `from ${day(period.from)} to ${lastDay(period)} in ${language} from the sources asked for ` +
        `(${state.sources.join(', ')})`;
      // Articles that name the topic only in passing are no story on it (pickStories): saying that none
      // was published would be untrue, and would not tell the caller to name the topic more closely.
      await fail(
        'no_articles',
        candidates.length === 0
          ? `no article on "${state.topic}" was published ${where}`
          : `${candidates.length === deps.candidateLimit ? 'many' : candidates.length} ` +
              `${candidates.length === 1 ? 'article' : 'articles'} ${where} mention "${state.topic}", ` +
              'but only in passing, none in its headline or as what it is about: name the topic as the news ' +
              'does (a person, a company, an event), or widen date_range',
      );
      return;
    }
    await advance({
      stage: 'scripting',
      progress: progressAt.scripting,
      articles: stories.flatMap((story, index) => story.articles.map((a) => cited(a, index))),
    });
    step = 'scripting';
  }

  if (step === 'scripting') {
    if (stories.length === 0) stories = await storiesAgain(deps.clickhouse, state.articles);
    const { script, writer } = await deps.scriptWriter.write({
      topic: state.topic,
      from: period.from,
      to: period.to,
      stories,
      length,
      language,
    });
    // The articles the programme cites: a story the script had no room for (its length is budgeted in
    // words) is not listed beside the chapters as if it were in it.
    const inScript = new Set(script.segments.flatMap((s) => s.articleIds));
    await advance({
      stage: 'narrating',
      progress: progressAt.narrating,
      script_writer: writer,
      segments: script.segments.map(segmentEvent),
      articles: state.articles.filter((a) => inScript.has(a.article_id)),
    });
  }

  // Narrating (and assembling, which needs the sentences' audio again: from the store).
  let voice: Voice;
  try {
    voice = await deps.synthesis.voiceFor({
      ...(state.voice ? { voiceId: state.voice } : {}),
      language,
    });
  } catch (error) {
    await fail('speech_failed', `no voice for this documentary: ${(error as Error).message}`);
    return;
  }
  const total = state.segments.reduce((n, s) => n + s.sentences.length, 0);
  let done = 0;
  let reported: number = progressAt.narrating;
  const spoken: SpokenSegment[] = [];
  for (const segment of state.segments) {
    const sentences = [];
    for (const text of segment.sentences) {
      await stopIfCancelled(true);
      const result = await deps.synthesis.synthesize({
        text,
        voiceId: voice.id,
        language,
        format: 'wav',
      });
      sentences.push({ text, pcm: readWav(await readAll(deps.store, result.audio.key)) });
      done++;
      await deps.heartbeat();
      // Progress events every tenth of the narration, not per sentence.
      const progress = progressAt.narrating + ((progressAt.assembling - progressAt.narrating) * done) / total;
      if (progress - reported >= 0.075 && done < total) {
        reported = progress;
        await advance({ stage: 'narrating', progress: round(progress), voice: voice.id });
      }
    }
    spoken.push({
      kind: segment.kind as SpokenSegment['kind'],
      title: segment.title,
      articleIds: segment.article_ids,
      sentences,
    });
  }
  await advance({ stage: 'assembling', progress: progressAt.assembling, voice: voice.id });

  const { pcm, timeline } = assemble(spoken);
  const loud = await normaliseLoudness(pcm, { targetLufs: deps.targetLufs });
  const identity = [pipelineVersion, voice.id, deps.targetLufs, JSON.stringify(state.segments)];
  const audio = await encodeWithChapters(loud.pcm, 'mp3', chaptersOf(timeline), { title: state.topic });
  const keys = {
    audio: audioKey('mp3', identity),
    vtt: audioKey('vtt', identity),
    json: audioKey('json', identity),
  };
  await deps.store.put(keys.audio, audio, { contentType: 'audio/mpeg', durationMs: timeline.durationMs });
  const withTranscript = state.format !== 'audio';
  if (withTranscript) {
    await deps.store.put(keys.vtt, Buffer.from(webVtt(timeline)), {
      contentType: 'text/vtt; charset=utf-8',
      durationMs: timeline.durationMs,
    });
    await deps.store.put(keys.json, Buffer.from(JSON.stringify(transcriptJson(timeline))), {
      contentType: 'application/json; charset=utf-8',
      durationMs: timeline.durationMs,
    });
  }
  deps.logger.info(
    {
      documentaryId: state.documentary_id,
      durationMs: timeline.durationMs,
      sentences: total,
      lufs: loud.measuredLufs,
      gainDb: loud.gainDb,
    },
    'documentary ready',
  );
  await advance({
    status: 'ready',
    stage: null,
    progress: 1,
    audio_key: keys.audio,
    audio_url: deps.address(keys.audio),
    transcript_key: withTranscript ? keys.vtt : null,
    transcript_url: withTranscript ? deps.address(keys.vtt) : null,
    transcript_json_key: withTranscript ? keys.json : null,
    duration_ms: timeline.durationMs,
    segments: state.segments.map((segment, i) => ({
      ...segment,
      start_ms: timeline.segments[i]?.startMs ?? null,
      end_ms: timeline.segments[i]?.endMs ?? null,
    })),
  });
}

const cited = (a: CandidateArticle, story: number): DocumentaryArticle => ({
  article_id: a.id,
  title: a.title,
  source_name: a.source,
  url: a.url,
  published_at: a.publishedAt.getTime(),
  story,
});

const segmentEvent = (s: ScriptSegment) => ({
  kind: s.kind,
  title: s.title,
  sentences: s.sentences,
  article_ids: s.articleIds,
  start_ms: null,
  end_ms: null,
});

/** The stories of a documentary resumed at scripting: its cited articles, read again, in their stories. */
async function storiesAgain(
  clickhouse: ClickHouse,
  articles: readonly DocumentaryArticle[],
): Promise<Story[]> {
  const found = await readArticlesById(
    clickhouse,
    articles.map((a) => a.article_id),
  );
  const byStory = new Map<number, CandidateArticle[]>();
  for (const a of articles) {
    const article = found.get(a.article_id);
    if (!article) continue;
    byStory.set(a.story, [...(byStory.get(a.story) ?? []), article]);
  }
  return [...byStory.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, list], i) => ({ lead: list[0]!, articles: list, relevance: 1 - i / (byStory.size + 1) }));
}

async function readAll(store: AudioStore, key: string): Promise<Buffer> {
  const file = await store.read(key);
  if (!file) throw new Error(`the audio store lost ${key} just after storing it`);
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const day = (d: Date) => d.toISOString().slice(0, 10);
/** The last day a period holds: its end is the moment after it (a date_range's end, or now). */
const lastDay = ({ from, to }: { from: Date; to: Date }) =>
  day(to.getTime() > from.getTime() ? new Date(to.getTime() - 1) : to);
