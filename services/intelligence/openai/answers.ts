// What the model must answer, one zod schema per operation. Each schema is both the JSON schema
// sent with the request (strict structured output, derived by the SDK's own helper so that it
// is the subset OpenAI's strict mode accepts) and the validation of the answer that comes back:
// a server that ignores response_format, or a model that drifts, is caught here.
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { categories } from '../../runtime/categories.ts';
import type { EntityType } from '../../runtime/events/types.generated.ts';

const entityTypes = ['person', 'organization', 'place', 'other'] as const satisfies readonly EntityType[];

const text = z.string().trim().min(1);

export const enrichmentAnswer = z.object({
  summary: text.describe('The summary, in the language of the article, of the requested length.'),
  context: z
    .string()
    .nullable()
    .describe('Background drawn only from the related articles given, or null when none is relevant.'),
  context_article_ids: z
    .array(z.string())
    .describe('Ids of the related articles the context draws on; empty when context is null.'),
  insights: z.array(text).describe('Two to four short, non-obvious takeaways.'),
  sentiment: z.object({
    label: z.enum(['positive', 'neutral', 'negative', 'mixed']),
    score: z.number().min(-1).max(1).describe('-1 very negative .. 1 very positive'),
  }),
  entities: z
    .array(
      z.object({
        name: text,
        type: z.enum(entityTypes),
        salience: z.number().min(0).max(1).describe('Importance to the article, 1 = central'),
        mentions: z.int().min(1).max(10_000),
      }),
    )
    .describe('People, organizations and places the article is about, most salient first.'),
  keywords: z.array(text).describe('Up to ten keywords, most telling first.'),
  category: z.enum(categories).nullable(),
  language: z
    .string()
    .regex(/^[a-z]{2}$/)
    .nullable()
    .describe('ISO 639-1 code of the article language'),
});
export type EnrichmentAnswer = z.infer<typeof enrichmentAnswer>;

export const summaryAnswer = z.object({
  summary: text.describe('The summary, in the language of the article, in the requested tone and length.'),
});
export type SummaryAnswer = z.infer<typeof summaryAnswer>;

export const educationAnswer = z.object({
  key_terms: z
    .array(z.object({ term: text, explanation: text }))
    .describe('Terms a reader may not know, each explained in one or two plain sentences.'),
  questions: z.array(text).describe('Three to five questions that check understanding of the text.'),
});
export type EducationAnswer = z.infer<typeof educationAnswer>;

export const answerFormats = {
  enrich: zodResponseFormat(enrichmentAnswer, 'article_enrichment'),
  summarize: zodResponseFormat(summaryAnswer, 'article_summary'),
  educate: zodResponseFormat(educationAnswer, 'article_education'),
};

export type AnswerCheck<T> = { ok: true; answer: T } | { ok: false; reason: string };

/** Parses and validates an answer; the reason names what was wrong, never echoes the whole answer. */
export function checkAnswer<T>(schema: z.ZodType<T>, content: string): AnswerCheck<T> {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return { ok: false, reason: `the answer is not JSON (${content.length} characters)` };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, answer: result.data };
  const problems = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : '';
  return { ok: false, reason: `the answer does not match the schema: ${problems.join('; ')}${more}` };
}
