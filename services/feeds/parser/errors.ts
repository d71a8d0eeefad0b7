// A feed that cannot be parsed is a property of the source, not a bug: the
// reason is shown as-is on the sources health dashboard, so it is written for
// the person who will read it there.

export class FeedParseError extends Error {
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'FeedParseError';
    this.reason = reason;
  }
}
