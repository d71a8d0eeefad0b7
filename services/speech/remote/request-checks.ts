// What a remote provider checks before it spends a request: a text the service would refuse (blank, over
// its length limit) or a speed outside its range is refused here, with the limit named, and never sent.
// The synthesizer splits text to fit `limits` beforehand, so reaching one of these means a caller bug.
import { SpeechRejectedError, type SpeechLimits, type SpeechRequest } from '../provider.ts';

/** Characters as the remote services count them: Unicode code points, not UTF-16 units. */
export const codePoints = (text: string): number => Array.from(text).length;

export function checkRequest(provider: string, limits: SpeechLimits, request: SpeechRequest): void {
  const { text, speed } = request;
  if (text.trim().length === 0) throw new SpeechRejectedError(`${provider}: the text is empty`);
  if (limits.maxChars !== undefined) {
    const chars = codePoints(text);
    if (chars > limits.maxChars) {
      throw new SpeechRejectedError(
        `${provider}: the text has ${chars} characters, over the ${limits.maxChars} one request may carry`,
      );
    }
  }
  if (limits.maxBytes !== undefined) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > limits.maxBytes) {
      throw new SpeechRejectedError(
        `${provider}: the text is ${bytes} bytes in UTF-8, over the ${limits.maxBytes} one request may carry`,
      );
    }
  }
  if (!Number.isFinite(speed) || speed < limits.speed.min || speed > limits.speed.max) {
    throw new SpeechRejectedError(
      `${provider}: speed ${speed} is outside ${limits.speed.min}–${limits.speed.max}`,
    );
  }
}

/** "scheme://host[:port]/path" of an endpoint: credentials embedded in the URL stay out of messages. */
export function describeEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/$/, '')}`;
  } catch {
    return 'the configured endpoint';
  }
}
