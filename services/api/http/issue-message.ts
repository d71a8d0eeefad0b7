// zod's own messages in the words of the API's other messages. A schema's own `error` text is kept; only
// zod's defaults ("Invalid input: expected string, received null", "Too small: expected string to have
// >=1 characters") are rewritten, from the issue's facts, as "must be a string, not null" and "must not
// be empty". A union that failed is explained by the alternative that got furthest, so `topics: [5]`
// says which item was wrong instead of "Invalid input".
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

export interface PlainIssue {
  path: PropertyKey[];
  message: string;
}

const zodDefault = /^(Invalid (input|option|string|number|type)|Too (small|big)|Invalid$)/;

const kinds: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  bigint: 'an integer',
  date: 'a date',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function plainIssue(issue: Issue): PlainIssue {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // The alternative that went deepest before failing is the one the client meant.
    const deepest = issue.errors
      .map((branch) => branch[0])
      .filter((first): first is Issue => first !== undefined)
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (deepest !== undefined) {
      const inner = plainIssue(deepest);
      return { path: [...issue.path, ...inner.path], message: inner.message };
    }
  }
  // A strict object inside the body (a webhook's filter): the field is named by its whole path, as a
  // top-level unknown field is (route.ts), not hidden in a message about its parent.
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0)
    return { path: [...issue.path, issue.keys[0]!.slice(0, 60)], message: 'unknown field' };
  return { path: issue.path, message: zodDefault.test(issue.message) ? rewrite(issue) : issue.message };
}

function rewrite(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      const expected = kinds[issue.expected] ?? issue.expected;
      return received
        ? `must be ${expected}, not ${received === 'undefined' ? 'missing' : received}`
        : `must be ${expected}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? 'must not be empty' : `must be at least ${plural(min, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `must have at least ${plural(min, 'item')}`;
      return issue.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${plural(max, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `must have at most ${plural(max, 'item')}`;
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `must be ${issue.format === 'regex' ? 'in the expected form' : `a valid ${issue.format}`}`;
    default:
      return 'is not valid';
  }
}
