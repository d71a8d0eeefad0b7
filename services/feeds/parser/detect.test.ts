import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect.ts';
import { FeedParseError } from './errors.ts';

function reasonOf(text: string): string {
  try {
    detectFormat(text);
  } catch (error) {
    if (error instanceof FeedParseError) return error.reason;
    throw error;
  }
  throw new Error('expected a FeedParseError');
}

describe('detectFormat', () => {
  it('recognises each format by its root, past prolog, comments, PIs and DOCTYPE', () => {
    expect(
      detectFormat('<?xml version="1.0"?>\n<!-- c --><?xml-stylesheet href="x"?><rss version="2.0"/>'),
    ).toBe('rss');
    expect(
      detectFormat('<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "x.dtd"><rss/>'),
    ).toBe('rss');
    expect(detectFormat('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>')).toBe('rdf');
    expect(detectFormat('  <feed xmlns="http://www.w3.org/2005/Atom"/>')).toBe('atom');
    expect(detectFormat('<feed version="0.3" xmlns="http://purl.org/atom/ns#"/>')).toBe('atom');
    expect(detectFormat('\n {"version": "https://jsonfeed.org/version/1.1"}')).toBe('json');
  });

  it('says an HTML page is not a feed', () => {
    expect(reasonOf('<!DOCTYPE html>\n<html><head><title>x</title></head></html>')).toBe(
      'not a feed: an HTML page',
    );
    expect(reasonOf('<html lang="en">')).toBe('not a feed: an HTML page');
    expect(
      reasonOf(
        '<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"><html xmlns="http://www.w3.org/1999/xhtml">',
      ),
    ).toBe('not a feed: an HTML page');
    expect(reasonOf('<!-- generated --><body>')).toBe('not a feed: an HTML page');
    expect(reasonOf('<!doctype html>\n<meta charset="utf-8"><title>x</title>')).toBe(
      'not a feed: an HTML page',
    );
    expect(reasonOf('<!doctype html>\nMoved')).toBe('not a feed: an HTML page');
  });

  it('goes by the root, not an (X)HTML DOCTYPE copied in front of it', () => {
    expect(
      detectFormat(
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">\n<rss version="2.0"><channel/></rss>',
      ),
    ).toBe('rss');
    expect(detectFormat('<!doctype html><feed xmlns="http://www.w3.org/2005/Atom"/>')).toBe('atom');
  });

  it('gives a clear reason for empty, binary and other non-feed bodies', () => {
    expect(reasonOf('')).toBe('empty body');
    expect(reasonOf(' \n\t ')).toBe('empty body');
    expect(reasonOf('PK\u0003\u0004\u0000\u0000binary')).toBe(
      'not a feed: binary data (NUL bytes in the body)',
    );
    expect(reasonOf('\u0001\u0002\u0003\u0004\u0005garbage')).toBe(
      'not a feed: binary data (5 control characters in the first 12)',
    );
    expect(reasonOf('<opml version="2.0"/>')).toBe('not a feed: XML document with root element <opml>');
    expect(reasonOf('[1, 2]')).toBe('not a feed: a JSON array');
    expect(reasonOf('Service Unavailable')).toBe('not a feed: the body starts with "Service Unavailable"');
  });
});
