// Node keeps the first of two Authorization headers and drops the second without a word, where a proxy
// in front may have read the other: a request carrying two answers 400/401 instead of one credential
// chosen by position. The raw headers are the only place the second one is still seen.
import type { IncomingMessage } from 'node:http';

/** Whether header `name` (any case) appears more than once in the request as it was sent. */
export function headerRepeated(request: Pick<IncomingMessage, 'rawHeaders'>, name: string): boolean {
  const wanted = name.toLowerCase();
  let seen = 0;
  // rawHeaders alternates names and values.
  for (let i = 0; i < request.rawHeaders.length; i += 2)
    if (request.rawHeaders[i]!.toLowerCase() === wanted && ++seen > 1) return true;
  return false;
}
