import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkaLogLevel, retriedAnswers } from './client.ts';

const { logLevel } = kafkajs;

describe('the level of a KafkaJS log entry', () => {
  it('reads which answers KafkaJS retries from its own table of error codes', () => {
    // If KafkaJS moves or reshapes the table, this is where it shows.
    expect(retriedAnswers.has('This server is not the leader for that topic-partition')).toBe(true);
    expect(retriedAnswers.has('The group coordinator is not available')).toBe(true);
    expect(
      retriedAnswers.has("The coordinator is loading and hence can't process requests for this group"),
    ).toBe(true);
    expect(retriedAnswers.has('Not authorized to access topics: [Topic authorization failed]')).toBe(false);
  });

  it('writes an error answer KafkaJS retries as a warning', () => {
    const entry = {
      message: 'Response ListOffsets(key: 2, version: 3)',
      error: 'This server is not the leader for that topic-partition',
    };
    expect(kafkaLogLevel(logLevel.ERROR, entry)).toBe('warn');
  });

  it('keeps an error answer KafkaJS does not retry, and any other error, at error level', () => {
    expect(
      kafkaLogLevel(logLevel.ERROR, {
        message: 'Response Produce(key: 0, version: 7)',
        error: 'The request included a message larger than the max message size the server will accept',
      }),
    ).toBe('error');
    expect(
      kafkaLogLevel(logLevel.ERROR, {
        message: 'Crash: KafkaJSNumberOfRetriesExceeded',
        error: 'This server is not the leader for that topic-partition',
      }),
    ).toBe('error');
    expect(kafkaLogLevel(logLevel.WARN, { message: 'Response Fetch(key: 1, version: 11)' })).toBe('warn');
    expect(kafkaLogLevel(logLevel.INFO, { message: 'Consumer has joined the group' })).toBe('info');
  });
});
