// Completions are paid for by the token: the same question is never asked twice while an answer
// is remembered. The key is a digest of everything that shapes the answer, so a changed prompt,
// model, option, text or set of related articles is a new question.
import { createHash } from 'node:crypto';

export interface CompletionCache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}

export interface CompletionQuestion {
  model: string;
  operation: 'enrich' | 'summarize' | 'educate';
  /** Bumped whenever the prompt or answer schema changes, so remembered answers to the old prompt are not reused. */
  promptVersion: number;
  options: Record<string, string>;
  title: string;
  /** The text as sent: after capping. */
  text: string;
  relatedArticleIds: readonly string[];
}

export function completionCacheKey(question: CompletionQuestion): string {
  const canonical = JSON.stringify([
    question.model,
    question.operation,
    question.promptVersion,
    Object.entries(question.options).sort(([a], [b]) => a.localeCompare(b)),
    question.title,
    question.text,
    question.relatedArticleIds,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
