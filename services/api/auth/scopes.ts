// What each scope of the API lets a credential do, in a line: the OpenAPI document's OAuth 2.0 scheme
// lists them, as the scopes a client may ask POST /oauth/token for. Keyed by the known scopes
// (clients/plans.ts), so a scope added there without a line here does not compile.
import type { Scope } from '../../clients/plans.ts';
import { ApiError } from '../../runtime/api-error.ts';

/**
 * 403 insufficient_scope, with RFC 6750's challenge naming the scope (3.1), so an OAuth client can ask for
 * a token that has it: every refusal for a missing scope, whether of an endpoint or of one option of it.
 */
export const insufficientScope = (scope: string, message: string): ApiError =>
  new ApiError('insufficient_scope', message, {
    'WWW-Authenticate': `Bearer realm="news-intelligence", error="insufficient_scope", scope="${scope}"`,
  });

export const scopeDescriptions: Readonly<Record<Scope, string>> = {
  'read:feeds':
    'Read articles, stories, sources and personalized feeds; follow the live stream and get its tokens.',
  'write:sources': 'Add a feed and subscribe to it; end a subscription to a source.',
  'write:monitors':
    'Create, list, read and delete CRM monitors; receive their news.alert events on the live stream.',
  'write:webhooks': 'Register, change, test and delete webhooks; read and resend their deliveries.',
  'use:ai': 'AI on request: enhance an article, analyze or summarize a text.',
  'use:audio':
    'Speech: list voices, synthesize text, voiced summaries (voice_enabled) and audio documentaries.',
};
