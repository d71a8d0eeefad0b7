// Every charset feeds are seen in, declared each way it can be (Content-Type header,
// XML prolog, byte order mark) and not declared at all, through the public parse
// entry: the title and description must come out as the text that was encoded.
// The bytes are made by iconv-lite / Buffer, not by the code under test.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody } from './encoding.ts';
import { parseFeed } from './parse-feed.ts';

// A few sentences of news in the language each charset is used for. Detection of an
// undeclared charset needs about this much text (see "how much text detection needs").
const TEXTS = {
  multilingual:
    'Zürich, Москва and 東京: markets rallied on Friday — the index rose 2 % (€, ¥, ₩) as Ελλάδα and עברית headlines agreed 😀. Analysts in Seoul (서울) and Bangkok (กรุงเทพ) expect more.',
  english:
    'The city council’s “emergency” budget—approved late on Tuesday—adds €4.5 million for flood defences… Critics say it’s too little, too late; the mayor’s office called the vote a “turning point” for the river district.',
  portuguese:
    'O governo anunciou na terça-feira um pacote de medidas para a habitação – “é um passo decisivo”, disse o ministro. A oposição critica a falta de ambição… As câmaras municipais terão até dezembro para apresentar os seus planos de reabilitação urbana.',
  polish:
    'Rząd przyjął w środę projekt ustawy o ochronie środowiska. Zgodnie z nowymi przepisami gminy będą musiały częściej kontrolować jakość powietrza, a właściciele starych pieców otrzymają dopłaty do wymiany źródeł ciepła. Ekolodzy twierdzą, że zmiany są spóźnione.',
  french:
    "Le prix de l'électricité augmentera de 10 % au 1er février, a annoncé le ministère. Cette hausse représente environ 120 € par an pour un foyer moyen. « C'est le cœur de la réforme », explique la ministre, qui promet une aide aux ménages les plus modestes dès cet été.",
  czech:
    'Vláda schválila návrh zákona o podpoře obnovitelných zdrojů energie. Podle ministra průmyslu by nové předpisy měly urychlit výstavbu solárních elektráren na střechách budov. Opozice kritizuje, že zákon přichází příliš pozdě a neřeší ceny elektřiny.',
  russian:
    'Правительство утвердило новый порядок выплаты пособий семьям с детьми. Изменения вступят в силу с первого января следующего года. По словам министра, поддержку получат около трёх миллионов семей, а средний размер выплаты вырастет почти на двадцать процентов.',
  bulgarian:
    'Народното събрание прие на първо четене промените в Закона за енергетиката. Според вносителите те ще позволят по-бързо присъединяване на нови соларни централи към мрежата. Опозицията настоява за обществено обсъждане преди окончателното гласуване.',
  greek:
    'Η κυβέρνηση ανακοίνωσε σήμερα νέα μέτρα στήριξης για τα νοικοκυριά που πλήττονται από την ακρίβεια. Ο υπουργός Οικονομικών δήλωσε ότι οι επιδοτήσεις θα καταβληθούν έως το τέλος του μήνα. Η αντιπολίτευση χαρακτήρισε τα μέτρα ανεπαρκή.',
  hebrew:
    'הממשלה אישרה היום את תקציב המדינה לשנה הבאה לאחר דיון ארוך. שר האוצר אמר כי התקציב יתמקד בחינוך, בבריאות ובתחבורה ציבורית. ראשי הערים בצפון דרשו תוספת של מאות מיליוני שקלים לחיזוק המקלטים.',
  thai: 'รัฐบาลประกาศมาตรการช่วยเหลือเกษตรกรที่ได้รับผลกระทบจากน้ำท่วมในภาคเหนือ โดยจะจ่ายเงินชดเชยให้แก่ครัวเรือนที่เสียหายภายในเดือนหน้า นายกรัฐมนตรีกล่าวว่าจะเร่งซ่อมแซมถนนและสะพานที่ชำรุดโดยเร็วที่สุด',
  traditionalChinese:
    '台北市政府今天宣布，將在明年擴大公共自行車系統，新增三百個租借站。市長表示，這項計畫可以減少交通壅塞，並鼓勵市民使用綠色交通工具。議員則要求市府公開預算細節，避免浪費公帑。',
  simplifiedChinese:
    '国家统计局今天发布数据显示，今年前三季度国内生产总值同比增长百分之五。专家认为，消费和服务业的恢复是经济增长的主要动力。政府表示将继续实施积极的财政政策，支持中小企业发展。',
  japanese:
    '東京都は本日、来年度から公立小学校の給食費を無償化すると発表しました。知事は記者会見で、子育て世帯の負担を軽くするための重要な政策だと説明しました。対象となる児童はおよそ六十万人に上る見込みです。',
  korean:
    '정부는 오늘 내년도 예산안을 국회에 제출했다고 밝혔다. 이번 예산안은 일자리 창출과 저출산 대책에 중점을 두었으며, 지방 자치단체에 대한 지원도 크게 늘렸다. 야당은 재정 건전성이 악화될 수 있다며 우려를 나타냈다.',
} as const;

interface Case {
  /** The label a feed declares. */
  label: string;
  /** The iconv-lite codec that makes the bytes (differs where the label means a superset). */
  codec: string;
  text: keyof typeof TEXTS;
  bom?: number[];
}

const CASES: Case[] = [
  { label: 'utf-8', codec: 'utf8', text: 'multilingual', bom: [0xef, 0xbb, 0xbf] },
  { label: 'utf-16le', codec: 'utf16le', text: 'multilingual', bom: [0xff, 0xfe] },
  { label: 'utf-16be', codec: 'utf16be', text: 'multilingual', bom: [0xfe, 0xff] },
  { label: 'utf-32le', codec: 'utf32le', text: 'multilingual', bom: [0xff, 0xfe, 0, 0] },
  { label: 'utf-32be', codec: 'utf32be', text: 'multilingual', bom: [0, 0, 0xfe, 0xff] },
  { label: 'windows-1252', codec: 'windows1252', text: 'english' },
  // Declared ISO-8859-1, written with windows-1252 punctuation (“ ” – …): very common.
  { label: 'iso-8859-1', codec: 'windows1252', text: 'portuguese' },
  { label: 'iso-8859-2', codec: 'iso88592', text: 'polish' },
  { label: 'windows-1250', codec: 'windows1250', text: 'czech' },
  { label: 'iso-8859-15', codec: 'iso885915', text: 'french' },
  { label: 'koi8-r', codec: 'koi8r', text: 'russian' },
  { label: 'windows-1251', codec: 'windows1251', text: 'bulgarian' },
  { label: 'iso-8859-7', codec: 'iso88597', text: 'greek' },
  { label: 'windows-1255', codec: 'windows1255', text: 'hebrew' },
  { label: 'tis-620', codec: 'tis620', text: 'thai' },
  { label: 'big5', codec: 'big5', text: 'traditionalChinese' },
  { label: 'gb2312', codec: 'gbk', text: 'simplifiedChinese' },
  { label: 'gbk', codec: 'gbk', text: 'simplifiedChinese' },
  { label: 'euc-jp', codec: 'eucjp', text: 'japanese' },
  { label: 'shift_jis', codec: 'shiftjis', text: 'japanese' },
  { label: 'euc-kr', codec: 'euckr', text: 'korean' },
];

const firstSentence = (text: string) => /^.+?[.。]/u.exec(text)?.[0] ?? text;

function feedXml(text: string, prologEncoding: string | null): string {
  const declaration = prologEncoding
    ? `<?xml version="1.0" encoding="${prologEncoding}"?>`
    : '<?xml version="1.0"?>';
  return `${declaration}
<rss version="2.0">
  <channel>
    <title>${firstSentence(text)}</title>
    <link>https://news.example/</link>
    <description>News</description>
    <item>
      <title>${firstSentence(text)}</title>
      <link>https://news.example/1</link>
      <description>${text}</description>
    </item>
  </channel>
</rss>
`;
}

function encoded(xml: string, codec: string, bom: number[] = []): Uint8Array {
  const bytes = iconv.encode(xml, codec);
  // Guards the table itself: a text the charset cannot hold would test nothing.
  expect(iconv.decode(bytes, codec)).toBe(xml);
  return new Uint8Array([...bom, ...bytes]);
}

function expectText(body: Uint8Array, contentType: string | null, text: string) {
  const feed = parseFeed(body, contentType);
  expect(feed.title).toBe(firstSentence(text));
  expect(feed.items[0]?.title).toBe(firstSentence(text));
  expect(feed.items[0]?.summaryHtml).toBe(text);
}

describe('charsets', () => {
  describe.each(CASES)('$label', ({ label, codec, text: key }) => {
    const text = TEXTS[key];

    it('declared in the Content-Type header', () => {
      const body = encoded(feedXml(text, null), codec);
      const contentType = `application/rss+xml; charset=${label}`;
      expect(decodeBody(body, contentType).source).toBe('header');
      expectText(body, contentType, text);
    });

    it('declared in the XML prolog', () => {
      const body = encoded(feedXml(text, label), codec);
      // UTF-16 and UTF-32 without a BOM are recognised by their NUL bytes, before the prolog is read.
      expect(decodeBody(body, 'application/rss+xml').source).toBe(
        label.startsWith('utf-') && label !== 'utf-8' ? 'sniffed' : 'prolog',
      );
      expectText(body, 'application/rss+xml', text);
    });

    it('not declared at all', () => {
      const body = encoded(feedXml(text, null), codec);
      expectText(body, 'application/rss+xml', text);
    });
  });

  it.each(CASES.filter((c) => c.bom))(
    '$label declared by its byte order mark, over a header that says otherwise',
    ({ codec, text: key, bom }) => {
      const text = TEXTS[key];
      const body = encoded(feedXml(text, null), codec, bom);
      const contentType = 'application/rss+xml; charset=windows-1252';
      expect(decodeBody(body, contentType).source).toBe('bom');
      expectText(body, contentType, text);
    },
  );

  // The detector was right for every prefix of these texts from about 20 characters on
  // (below, a few accented letters can pass for another Latin charset, or a handful of
  // Cyrillic or Thai letters for a neighbour). A headline's worth, with a margin:
  it.each(CASES.filter((c) => !c.label.startsWith('utf-')))(
    '$label not declared, in a feed with only 60 characters of text',
    ({ codec, text: key }) => {
      const text = TEXTS[key].slice(0, 60).trim();
      const body = encoded(feedXml(text, null), codec);
      expect(parseFeed(body, 'application/rss+xml').items[0]?.summaryHtml).toBe(text);
    },
  );

  it('names what it detected, and warns that nothing was declared', () => {
    const body = encoded(feedXml(TEXTS.japanese, null), 'shiftjis');
    const decoded = decodeBody(body, null);
    expect(decoded).toMatchObject({ encoding: 'shift_jis', source: 'detected' });
    expect(decoded.warnings).toEqual([
      'no charset declared and the body is not valid UTF-8; detected shift_jis',
    ]);
  });

  it('decodes windows-1252 punctuation and the euro sign, which Node’s TextDecoder gets wrong', () => {
    const bytes = Uint8Array.from([0x80, 0x20, 0x91, 0x92, 0x93, 0x94, 0x96, 0x97, 0x85, 0x99]);
    for (const label of ['windows-1252', 'iso-8859-1', 'latin1', 'us-ascii', 'cp1252']) {
      expect(decodeBody(bytes, `text/xml; charset=${label}`).text).toBe('€ ‘’“”–—…™');
    }
  });

  it('reads UTF-32 declared without a byte order in the header', () => {
    const xml = feedXml(TEXTS.multilingual, null);
    expectText(encoded(xml, 'utf32le'), 'application/rss+xml; charset=utf-32', TEXTS.multilingual);
  });

  it('reads a JSON Feed in UTF-16 or UTF-32 without a byte order mark', () => {
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Москва',
      items: [{ id: '1', url: 'https://news.example/1', title: '東京', content_text: 'Zürich' }],
    });
    for (const codec of ['utf16le', 'utf16be', 'utf32le', 'utf32be']) {
      const feed = parseFeed(encoded(json, codec), 'application/feed+json');
      expect([feed.title, feed.items[0]?.title]).toEqual(['Москва', '東京']);
    }
  });
});
