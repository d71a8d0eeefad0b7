import { describe, expect, it } from 'vitest';
import { monthTable } from './date-words.ts';
import { parseFeedDate, unknownZoneOf, zonelessTime } from './dates.ts';

describe('parseFeedDate', () => {
  it.each([
    // RFC 822 / 1123 as specified
    ['Wed, 03 Jan 2018 13:47:00 GMT', '2018-01-03T13:47:00.000Z'],
    ['Sat, 23 Jan 2016 15:40:37 +0000', '2016-01-23T15:40:37.000Z'],
    ['Fri, 08 Jul 2016 13:40:00 UTC', '2016-07-08T13:40:00.000Z'],
    ['Mon, 9 Apr 2018 18:55:38 UT', '2018-04-09T18:55:38.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 PST', '2019-10-01T22:30:00.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 EDT', '2019-10-01T18:30:00.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 EST', '2019-10-01T19:30:00.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 Z', '2019-10-01T14:30:00.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 ICT', '2019-10-01T07:30:00.000Z'], // Indochina, as Vietnamese feeds write it
    ['Tue, 01 Oct 2019 14:30:00 SAST', '2019-10-01T12:30:00.000Z'],
    // ... and as found in the wild
    ['01 Oct 2019 14:30 +0100', '2019-10-01T13:30:00.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 +01:00', '2019-10-01T13:30:00.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 GMT+2', '2019-10-01T12:30:00.000Z'],
    ['Tue, 01 Oct 2019 14:30:00 GMT-0530', '2019-10-01T20:00:00.000Z'],
    ['Tue, 1 Oct 19 14:30:00 GMT', '2019-10-01T14:30:00.000Z'],
    ['Fri, 1 Oct 99 14:30:00 GMT', '1999-10-01T14:30:00.000Z'],
    ['03 Apr 02 1500 GMT', '2002-04-03T15:00:00.000Z'], // heraldsun.rss
    ['Seg, 24 Set 2018 19:42:40 -0300', '2018-09-24T22:42:40.000Z'], // uolNoticias.rss
    ['Mi, 15 Okt 2014 08:00:00 +0200', '2014-10-15T06:00:00.000Z'],
    ['mar., 14 févr. 2017 10:00:00 +0100', '2017-02-14T09:00:00.000Z'],
    ['Wednesday, 03 January 2018 13:47:00 GMT', '2018-01-03T13:47:00.000Z'],
    ['Wednesday, 03-January-2018 13:47:00 GMT', '2018-01-03T13:47:00.000Z'],
    ['Tuesday, 01-Dec-26 05:00:00 GMT', '2026-12-01T05:00:00.000Z'], // RFC 850, as in old HTTP headers
    ['01-déc.-2026 05:00 +0100', '2026-12-01T04:00:00.000Z'],
    // UTF-8 read as ISO-8859-1 (a feed that declares the one and is the other): repaired, then read.
    ['dim., 06 dÃ©c. 2026 10:00:00 +0100', '2026-12-06T09:00:00.000Z'],
    ['Mon Jan 22 2018 10:00:00 GMT+0000 (Coordinated Universal Time)', '2018-01-22T10:00:00.000Z'],
    ['Sun Nov  6 08:49:37 1994', '1994-11-06T08:49:37.000Z'],
    ['Mon, 24 Sep 2018 07:42:40 PM +0000', '2018-09-24T19:42:40.000Z'],
    ['Wed, 03 Jan 2018 13:47:00 GMT\n      ', '2018-01-03T13:47:00.000Z'],
    ['Wed, 03 Jan 2018 13:47:00 XYZ', '2018-01-03T13:47:00.000Z'],
    ['Wed, 03 Jan 2018', '2018-01-03T00:00:00.000Z'],
    // ISO 8601 / W3C-DTF
    ['2018-01-31T20:15:15Z', '2018-01-31T20:15:15.000Z'],
    ['2016-06-03T07:38:00.000-07:00', '2016-06-03T14:38:00.000Z'],
    ['2017-06-15T10:29:47-07:00', '2017-06-15T17:29:47.000Z'],
    ['2005-02-16T18:45:10.250123+01:00', '2005-02-16T17:45:10.250Z'],
    ['2020-05-06T07:08Z', '2020-05-06T07:08:00.000Z'],
    ['2020-05-06T07:08:09', '2020-05-06T07:08:09.000Z'],
    ['2020-05-06 07:08:09 +0200', '2020-05-06T05:08:09.000Z'],
    ['2020-05-06', '2020-05-06T00:00:00.000Z'],
    ['2020-05', '2020-05-01T00:00:00.000Z'],
    ['2020', '2020-01-01T00:00:00.000Z'],
    ['2020-02-29T23:59:60Z', '2020-02-29T23:59:59.000Z'],
    // Unix time, seconds or milliseconds
    ['1732615200', '2024-11-26T10:00:00.000Z'],
    ['1732615200123', '2024-11-26T10:00:00.123Z'],
    // Day and month in the one order that is a date, UTC
    ['26/11/2026', '2026-11-26T00:00:00.000Z'],
    ['26.11.2026 10:05', '2026-11-26T10:05:00.000Z'],
    ['11/26/2026 10:05:30', '2026-11-26T10:05:30.000Z'],
  ])('%s', (raw, iso) => {
    expect(parseFeedDate(raw)?.toISOString()).toBe(iso);
  });

  it.each([
    // Spanish and Portuguese: "de" between the parts, a day name in the language
    ['6 de diciembre de 2026 10:30', '2026-12-06T10:30:00.000Z'],
    ['6 de diciembre del 2026', '2026-12-06T00:00:00.000Z'],
    ['sáb, 06 dic 2026 10:30:00 +0100', '2026-12-06T09:30:00.000Z'],
    ['6 de dezembro de 2026', '2026-12-06T00:00:00.000Z'],
    ['Sáb, 6 de Dezembro de 2026 10:30:00 -0300', '2026-12-06T13:30:00.000Z'],
    // Russian: short and genitive month names, "г." or "года" after the year, MSK in Cyrillic
    ['06 дек 2026 10:30:00 +0300', '2026-12-06T07:30:00.000Z'],
    ['Сб, 06 Дек. 2026 10:30:00 +0300', '2026-12-06T07:30:00.000Z'],
    ['6 декабря 2026, 10:30', '2026-12-06T10:30:00.000Z'],
    ['6 мая 2026 г. 10:30', '2026-05-06T10:30:00.000Z'],
    ['1 января 2026 года, 09:15 МСК', '2026-01-01T06:15:00.000Z'],
    ['6 декабря 2026 в 10:30', '2026-12-06T10:30:00.000Z'],
    // German: the day with a full stop, "Uhr" after the time, "um" before it; dotted numeric dates day first
    ['Montag, 07. Dezember 2026 21:52', '2026-12-07T21:52:00.000Z'],
    ['7. Dez. 2026', '2026-12-07T00:00:00.000Z'],
    ['Montag, 7. Dezember 2026, 21:52 Uhr', '2026-12-07T21:52:00.000Z'],
    ['7. Dezember 2026 um 21:52 +0100', '2026-12-07T20:52:00.000Z'],
    ['07.12.2026 21:52', '2026-12-07T21:52:00.000Z'],
    ['07.12.2026', '2026-12-07T00:00:00.000Z'],
    // French, Portuguese, Spanish and Italian: a word before the time, French "21h52"
    ['7 décembre 2026 à 21h51', '2026-12-07T21:51:00.000Z'],
    ['lundi 7 décembre 2026 à 21:51', '2026-12-07T21:51:00.000Z'],
    ['7 de dezembro de 2026 às 21:51', '2026-12-07T21:51:00.000Z'],
    ['7 de diciembre de 2026 a las 21:51', '2026-12-07T21:51:00.000Z'],
    ['7 dicembre 2026 alle 21:51', '2026-12-07T21:51:00.000Z'],
    // Greek (feedparser's test_date_parsers.py), Turkish, Polish and Dutch
    ['Κυρ, 11 Ιούλ 2004 12:00:00 EST', '2004-07-11T17:00:00.000Z'],
    ['11 Ιουλίου 2004', '2004-07-11T00:00:00.000Z'],
    ['Paz, 06 Ara 2026 10:30:00 +0300', '2026-12-06T07:30:00.000Z'],
    ['Sal, 06 Şub 2026 10:00:00 +0300', '2026-02-06T07:00:00.000Z'],
    ['wt., 15 paź 2024 08:00:00 +0200', '2024-10-15T06:00:00.000Z'],
    ['6 grudnia 2026 10:30', '2026-12-06T10:30:00.000Z'],
    ['ma, 06 mrt 2026 10:00:00 +0100', '2026-03-06T09:00:00.000Z'],
    // Chinese and Japanese, Korean: each part followed by its mark
    ['2026年12月6日 10:30', '2026-12-06T10:30:00.000Z'],
    ['2026年12月6日', '2026-12-06T00:00:00.000Z'],
    ['2026年12月06日(土) 10:30:15 +0900', '2026-12-06T01:30:15.000Z'],
    // Without a zone: Korean is Korea's (UTC+9), a Japanese weekday Japan's; Chinese stays UTC.
    ['2026년 12월 6일 10:30', '2026-12-06T01:30:00.000Z'],
    ['2026年12月6日(土) 10:30', '2026-12-06T01:30:00.000Z'],
    ['2026年12月6日（星期六） 10:30', '2026-12-06T10:30:00.000Z'],
    ['2026년 12월 6일 (토) 10:30 KST', '2026-12-06T01:30:00.000Z'],
  ])('reads the local form %s, UTC when it has no zone', (raw, iso) => {
    expect(parseFeedDate(raw)?.toISOString()).toBe(iso);
  });

  it.each([
    ['2026-12-07T10:30:00', true],
    ['2026-12-07 10:30', true],
    ['Mon, 07 Dec 2026 10:30:00', true],
    ['26.11.2026 10:30', true],
    ['Thu, 19 Nov 2026 10:00:00 pm', true],
    ['Nov 19, 2026 10:00 am', true],
    ['Nov 19, 2026 10:00 am EST', false],
    ['2026年12月6日 10:30', true],
    ['2026-12-07T10:30:00Z', false],
    ['2026-12-07T10:30:00+01:00', false],
    ['Mon, 07 Dec 2026 10:30:00 +0000', false],
    ['Mon, 07 Dec 2026 10:30:00 GMT', false],
    ['Mon, 07 Dec 2026 10:30:00 XYZ', false], // an unknown zone: unknownZoneOf says it
    ['2026년 12월 6일 10:30', false], // Korea's, its words say so
    ['2026年12月6日(土) 10:30', false], // Japan's
    ['2026-12-07', false], // a day, no time
    ['1796647972', false], // Unix time is UTC
    ['not a date 10', false],
    [null, false],
  ])('tells %s as a time without a zone: %s', (raw, zoneless) => {
    expect(zonelessTime(raw)).toBe(zoneless);
  });

  it.each([
    // An ISO date or a numeric one with a 12-hour clock (.NET's "M/d/yyyy h:mm:ss tt")
    ['2004-05-25 11:23:17 PM', '2004-05-25T23:23:17.000Z'],
    ['2004-05-25 12:05 a.m.', '2004-05-25T00:05:00.000Z'],
    ['2004-05-25 12:05PM +0200', '2004-05-25T10:05:00.000Z'],
    ['5/25/2004 11:23:17 PM', '2004-05-25T23:23:17.000Z'],
    ['25.05.2004 9:05 am', '2004-05-25T09:05:00.000Z'],
    // A zone by its IANA name, at its offset on that date: summer time in July, not in January
    ['2026-07-06 10:30:00 Europe/Berlin', '2026-07-06T08:30:00.000Z'],
    ['2026-01-06 10:30:00 Europe/Berlin', '2026-01-06T09:30:00.000Z'],
    ['Mon, 06 Jul 2026 10:30:00 America/New_York', '2026-07-06T14:30:00.000Z'],
    ['2026-07-06T10:30 America/Argentina/Buenos_Aires', '2026-07-06T13:30:00.000Z'],
    ['Wed, 19 Aug 2009 18:28:00 Etc/GMT', '2009-08-19T18:28:00.000Z'],
    ['Wed, 19 Aug 2009 18:28:00 Etc/GMT+5', '2009-08-19T23:28:00.000Z'], // the sign is POSIX's: UTC-5
    // Across the change to summer time: 02:30 does not exist in Berlin that night, 03:30 is CEST.
    ['2026-03-29 01:30:00 Europe/Berlin', '2026-03-29T00:30:00.000Z'],
    ['2026-03-29 03:30:00 Europe/Berlin', '2026-03-29T01:30:00.000Z'],
  ])('reads %s', (raw, iso) => {
    expect(parseFeedDate(raw)?.toISOString()).toBe(iso);
  });

  it('reads an unknown zone name as UTC and says so, as it does an unknown abbreviation', () => {
    expect(parseFeedDate('Wed, 03 Jan 2018 13:47:00 Mars/Olympus_Mons')?.toISOString()).toBe(
      '2018-01-03T13:47:00.000Z',
    );
    expect(unknownZoneOf('Wed, 03 Jan 2018 13:47:00 Mars/Olympus_Mons')).toBe('Mars/Olympus_Mons');
    expect(unknownZoneOf('Wed, 03 Jan 2018 13:47:00 Europe/Paris')).toBeNull();
    expect(zonelessTime('2026-07-06 10:30:00 Europe/Berlin')).toBe(false);
  });

  it('still reads a joining word after the time as an unknown zone, and knows MSK in Cyrillic', () => {
    expect(unknownZoneOf('Wed, 03 Jan 2018 13:47:00 DE')).toBe('DE');
    expect(unknownZoneOf('6 декабря 2026, 10:30 МСК')).toBeNull();
  });

  it.each([
    [''],
    ['   '],
    ['yesterday'],
    ['not a date at all'],
    ['2019-02-29T00:00:00Z'],
    ['2018-13-01'],
    ['31 Feb 2018 10:00:00 GMT'],
    ['Wed, 03 Jan 2018 25:00:00 GMT'],
    ['Wed, 03 Jan 2018 13:47:00 +9999'],
    ['12/11/2018'],
    ['13.13.2018'],
    ['31.02.2026'],
    ['7. 8. Dezember 2026'],
    ['31/31/2018'],
    ['26/11.2026'],
    ['31/04/2026'],
    ['12345678901'],
    ['x'.repeat(10_000)],
    // Local forms that are not dates
    ['de diciembre de 2026'],
    ['31 de febrero de 2026'],
    ['6 de diciembre de'],
    ['6 декабря'],
    ['30 февраля 2026 г.'],
    ['2026年13月6日'],
    ['2026年2月30日 10:30'],
    ['2026年12月6日 25:00'],
    ['2026年12月6日 10:30 XYZ'],
    ['2026년 12월 6일 10:30 어제'],
    // A 12-hour clock past 12
    ['2004-05-25 13:23:17 PM'],
    ['5/25/2004 13:23 PM'],
  ])('returns null, never an Invalid Date, for %j', (raw) => {
    expect(parseFeedDate(raw)).toBeNull();
  });

  it('returns null for null', () => {
    expect(parseFeedDate(null)).toBeNull();
  });
});

describe('the month names', () => {
  it('refuse a word given two months (the later list would silently win)', () => {
    expect(() => monthTable([[[10, ['listopad']]], [[11, ['Listopad']]]])).toThrow(
      'date-words: "Listopad" is month 10 and month 11',
    );
    expect(monthTable([[[5, ['maj']]], [[5, ['Maj.']]]]).get('maj')).toBe(5);
  });
});
