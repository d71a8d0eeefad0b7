// The credentials a feed URL can carry, hidden from whoever should not have them. A tenant may add a
// private feed (a publisher's feed for subscribers, a reader app's export): its URL then holds a token in
// its query (`?token=…`, `?api_key=…`) or a user and password before the host. The catalog of sources
// is shared by every tenant, so without this every tenant would read another's feed token in
// GET /v1/sources, and every log line that names the URL would hold it.
//
// What counts as a credential: the userinfo, and the value of a query parameter whose name says it is
// one. A guess by name, as log scrubbers make it: a token under an innocent name (`?u=3f9a…`) is not
// found. A tenant that subscribes to the source sees its URL whole (it gave it, or could have).

/**
 * Query parameter names that hold credentials: ending in one of these words, whatever comes before
 * (case-insensitive): `authkey`, `privatekey`, `hmacsig` and `api_key` alike. Some innocent names end so
 * too (`sortkey`, `zipcode`): their values are hidden from the tenants that do not subscribe, which
 * costs little beside a token shown.
 */
const credentialWords = [
  'token',
  'key',
  'apikey',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'auth',
  'authorization',
  'sig',
  'signature',
  'session',
  'sessionid',
  'sid',
  'credential',
  'credentials',
  'hash',
  'ticket',
  'code',
  'jwt',
];
const credentialName = new RegExp(`(?:${credentialWords.join('|')})$`, 'i');
/** Names that hold a credential wherever in the name: `access_token_v2`, `x-api-key-id`, `mySecretToken`. */
const credentialAnywhere = /token|secret|passw|api[_-]?key|signature|credential|session/i;

export const REDACTED = 'redacted';

/** Whether a query parameter of this name holds a credential. */
export function isCredentialName(name: string): boolean {
  return credentialName.test(name) || credentialAnywhere.test(name);
}

/**
 * The URL with its credentials replaced by `redacted`: the user and password, and the values of the
 * query parameters isCredentialName picks. Everything else is left as it was written (the other
 * parameters are not re-encoded). Text that is not an absolute URL comes back unchanged.
 */
export function withoutUrlSecrets(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = REDACTED;
    parsed.password = '';
    changed = true;
  }
  if (parsed.search.length > 1) {
    const parts = parsed.search.slice(1).split('&');
    const kept = parts.map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return part;
      let name: string;
      try {
        name = decodeURIComponent(part.slice(0, eq).replace(/\+/g, ' '));
      } catch {
        name = part.slice(0, eq);
      }
      if (!isCredentialName(name) || part.length === eq + 1) return part;
      changed = true;
      return `${part.slice(0, eq)}=${REDACTED}`;
    });
    parsed.search = kept.join('&');
  }
  return changed ? parsed.href : url;
}

/** Every http(s) URL in a text (an error message, a warning) with its credentials redacted. */
export function textWithoutUrlSecrets(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (url) => {
    // A sentence's full stop or closing bracket after a URL is not part of it.
    const trailing = /[.,;:!?)\]]+$/.exec(url)?.[0] ?? '';
    return withoutUrlSecrets(url.slice(0, url.length - trailing.length)) + trailing;
  });
}
