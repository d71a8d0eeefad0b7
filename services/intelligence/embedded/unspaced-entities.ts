// People, organisations and places in Chinese and Japanese text, which has no capital letters to tell a
// name by (entities.ts finds names by them). The clues are the words written around a name, the way a
// reader of the language tells one; each is cheap and, alone, precise:
// - a person by a title: Chinese puts it before the name (美国总统拜登, 外交部发言人毛宁), Japanese after
//   (植田和男総裁, バイデン大統領, 佐藤氏). A Chinese name that starts with a common surname is at most
//   three characters (习近平, not 习近平同); a transliterated one may be longer (泽连斯基) but ends at the
//   first word of two characters once it has two (特朗普, not 特朗普政府). A Japanese name is one or two
//   words of Kanji, or Katakana alone, and nothing else in its run (トヨタ自動車社長 names no person);
// - an organisation by its last word (阿里巴巴集团, 中国人民银行, ソフトバンクグループ, 東京大学), or a
//   ministry or office written as one word (外交部, 国务院);
// - a place by a list of countries, regions and large cities, or by an administrative suffix after a name
//   (广东省, 深圳市, 東京都, 横浜市).
// Words are ICU's (unspaced-words.ts), which cuts a name it does not know into characters (拜|登): a
// name is put back together from them. Mentions are counted as the name's occurrences in the text.
import type { Entity } from '../provider.ts';
import type { Sentence } from './sentences.ts';
import type { Token } from './token.ts';

const list = (words: string) => new Set(words.split(/\s+/).filter((w) => w.length > 0));

/** Titles written before a Chinese name. */
const chineseTitles = list(
  '总统 主席 总理 首相 副总理 副主席 副总统 部长 外长 防长 发言人 董事长 总裁 行长 省长 市长 书记 议长 大使 ' +
    '国务卿 首席执行官 创始人 主教练 教练 主任 局长 院长 校长 委员 教授 队长 球员 选手 前总统 总经理',
);
/** Titles written after a Japanese name. */
const japaneseTitles = list(
  '氏 さん 首相 大統領 社長 会長 総裁 知事 市長 議長 監督 教授 長官 外相 財務相 防衛相 官房長官 容疑者 被告 ' +
    '選手 代表 委員長 幹事長 頭取 CEO 最高経営責任者',
);
/** What follows a Chinese title without being a name (总统选举, 总统府). */
const notChineseNames = list('选举 大选 候选人 会议 办公室 府 团 职 一职 任期 身份 级 人选 宝座 特使 令');
/** Words of a Japanese run that make it no name (代表取締役社長). */
const notJapaneseNames = list('代表 取締役 専務 常務 執行 役員 副 新 前 元 現 次期 同 党 政府 首席');

/** Last words of organisations' names. */
const organisationEnds = list(
  '公司 有限公司 股份有限公司 集团 银行 大学 政府 委员会 协会 医院 研究院 研究所 交易所 基金会 法院 检察院 ' +
    '联合会 俱乐部 航空 电信 株式会社 ホールディングス グループ 銀行 証券 大学 政府 委員会 協会 病院 財団 商事 ' +
    '物産 製作所 工業 電機 電力 新聞 放送 航空 鉄道 自動車 日銀',
);
/**
 * Words of a trade that come before an organisation's last word without naming it: 华为技术有限公司 is cut
 * 华|为|技术|有限公司, and 为 is a stop word, so all that is left before 有限公司 is 技术.
 */
const tradeWords = list('技术 科技 信息 电子 网络 投资 控股 实业 发展 贸易 股份 国际 工业 能源 汽车 金融');
/** Organisations known by a name of their own. */
const organisations = list(
  '日銀 国連 欧州連合 联合国 欧盟 北约 世卫组织 世界卫生组织 国际货币基金组织 世界银行 欧佩克 东盟 央视 新华社',
);
/** One-word ministries and offices end so (外交部, 商务部, 国务院, 公安局, 発改委). */
const officeWord = /^[\p{sc=Han}]{2,}[部局院署委庁]$/u;
/** Administrative units after a place's name. */
const placeEnds = list('省 市 县 州 区 自治区 特别行政区 県 府 都 道');
const places = list(
  // Chinese
  '中国 美国 日本 韩国 朝鲜 俄罗斯 英国 法国 德国 意大利 西班牙 加拿大 澳大利亚 印度 巴西 墨西哥 乌克兰 以色列 ' +
    '伊朗 伊拉克 叙利亚 土耳其 沙特 埃及 南非 越南 泰国 新加坡 马来西亚 印度尼西亚 印尼 菲律宾 巴基斯坦 阿富汗 ' +
    '欧洲 亚洲 非洲 中东 北美 拉美 北京 上海 广州 深圳 香港 澳门 台湾 武汉 成都 重庆 天津 杭州 南京 西安 新疆 ' +
    '西藏 华盛顿 纽约 伦敦 巴黎 东京 莫斯科 柏林 首尔 基辅 加沙 布鲁塞尔 ' +
    // Japanese
    '米国 アメリカ 韓国 北朝鮮 ロシア イギリス フランス ドイツ イタリア スペイン カナダ オーストラリア インド ' +
    'ブラジル メキシコ ウクライナ イスラエル イラン イラク シリア トルコ ベトナム タイ シンガポール フィリピン ' +
    '欧州 アジア 北米 中東 東京 大阪 京都 名古屋 横浜 神戸 福岡 札幌 仙台 広島 沖縄 北海道 ワシントン ' +
    'ニューヨーク ロンドン パリ 北京 上海 ソウル モスクワ ベルリン キーウ ガザ',
);
const commonSurnames = new Set([
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈',
  ...'姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤习',
]);

const han = /^\p{sc=Han}+$/u;
const katakana = /^[\p{sc=Katakana}\u30fc\u30fb]+$/u;
const kana = /[\p{sc=Hiragana}\p{sc=Katakana}]/gu;
const hanOrKana = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu;

/** A word a name may be made of: Han or Katakana, not a stop word. */
const nameWord = (t: Token | undefined): t is Token =>
  t !== undefined && t.kind === 'word' && !t.stopWord && (han.test(t.text) || katakana.test(t.text));

interface Found {
  name: string;
  type: Entity['type'];
}

/** How many words from tokens[from] (up to three) spell one of `words`, ICU having cut it (发言|人); 0: none. */
function wordsSpelling(tokens: readonly Token[], from: number, words: ReadonlySet<string>): number {
  let text = '';
  for (let i = from; i < tokens.length && i < from + 3; i++) {
    if (tokens[i]!.spaced && i > from) break;
    text += tokens[i]!.text;
    if (words.has(text)) return i - from + 1;
  }
  return 0;
}

/** The text of `words` tokens from `from`. */
const spelling = (tokens: readonly Token[], from: number, words: number) =>
  tokens
    .slice(from, from + words)
    .map((w) => w.text)
    .join('');

/** The Chinese name that starts at tokens[start], and how many words it takes. */
function chinesePersonAt(tokens: readonly Token[], start: number): { name: string; words: number } | null {
  const first = tokens[start];
  if (!nameWord(first) || notChineseNames.has(first.text) || !han.test(first.text)) return null;
  const max = commonSurnames.has(first.text[0]!) ? 3 : 5;
  let name = '';
  let i = start;
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!nameWord(t) || !han.test(t.text) || (i > start && t.spaced)) break;
    if (name.length + t.text.length > max) break;
    if (name.length >= 2 && t.text.length >= 2) break;
    name += t.text;
  }
  return name.length >= 2 ? { name, words: i - start } : null;
}

function japanesePersonBefore(tokens: readonly Token[], end: number): string | null {
  // The run of name words right before the title, Katakana pieces (バイ|デ|ン) taken as one.
  const parts: string[] = [];
  let i = end - 1;
  while (i >= 0 && nameWord(tokens[i])) {
    if (katakana.test(tokens[i]!.text)) {
      let piece = '';
      while (i >= 0 && nameWord(tokens[i]) && katakana.test(tokens[i]!.text))
        piece = tokens[i--]!.text + piece;
      parts.unshift(piece);
    } else parts.unshift(tokens[i--]!.text);
    if (parts.length > 2) return null;
  }
  if (parts.length === 0 || parts.some((p) => notJapaneseNames.has(p))) return null;
  const name = parts.join('');
  const allKatakana = parts.every((p) => katakana.test(p));
  const allHan = parts.every((p) => han.test(p));
  if (allKatakana) return parts.length === 1 && name.length >= 2 ? name : null;
  return allHan && name.length >= 2 && name.length <= 6 ? name : null;
}

/** The names one sentence shows, by the clues above. */
function namesIn(tokens: readonly Token[], japanese: boolean): Found[] {
  const found: Found[] = [];
  const claimed = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // An organisation: a run of name words ending in an organisation's last word, two characters or more
    // before it; or an office written as one word.
    if (nameWord(t) && organisationEnds.has(t.text)) {
      let from = i;
      while (from > 0 && nameWord(tokens[from - 1]) && !tokens[from]!.spaced && i - from < 4) from--;
      const before = tokens
        .slice(from, i)
        .map((w) => w.text)
        .join('');
      if (before.length >= 2 && !places.has(before) && !tradeWords.has(before)) {
        found.push({ name: before + t.text, type: 'organization' });
        for (let k = from; k <= i; k++) claimed.add(k);
      }
      continue;
    }
    if (nameWord(t) && officeWord.test(t.text) && !claimed.has(i)) {
      found.push({ name: t.text, type: 'organization' });
      claimed.add(i);
      continue;
    }
    // A person: a Chinese title and the name after it; a Japanese name and the title after it.
    if (!japanese) {
      const title = wordsSpelling(tokens, i, chineseTitles);
      if (title > 0) {
        const person = chinesePersonAt(tokens, i + title);
        if (person) {
          found.push({ name: person.name, type: 'person' });
          for (let k = i + title; k < i + title + person.words; k++) claimed.add(k);
          i += title + person.words - 1;
        } else i += title - 1;
        continue;
      }
    } else if (wordsSpelling(tokens, i, japaneseTitles) > 0) {
      const name = japanesePersonBefore(tokens, i);
      if (name) found.push({ name, type: 'person' });
      continue;
    }
  }
  // Known organisations; places: a known one, or a name and an administrative unit after it.
  for (let i = 0; i < tokens.length; i++) {
    if (claimed.has(i) || !nameWord(tokens[i])) continue;
    const organisation = wordsSpelling(tokens, i, organisations);
    if (organisation > 0) {
      found.push({ name: spelling(tokens, i, organisation), type: 'organization' });
      i += organisation - 1;
      continue;
    }
    const spelled = wordsSpelling(tokens, i, places);
    if (spelled > 0) {
      const name = spelling(tokens, i, spelled);
      const unit = tokens[i + spelled];
      const withUnit = unit && !unit.spaced && placeEnds.has(unit.text);
      found.push({ name: withUnit ? name + unit.text : name, type: 'place' });
      i += spelled - (withUnit ? 0 : 1);
      continue;
    }
    const next = tokens[i + 1];
    if (
      next &&
      !next.spaced &&
      placeEnds.has(next.text) &&
      han.test(tokens[i]!.text) &&
      tokens[i]!.text.length >= 2 &&
      !claimed.has(i + 1)
    ) {
      found.push({ name: tokens[i]!.text + next.text, type: 'place' });
      i += 1;
    }
  }
  return found;
}

/** Whether the text is Japanese rather than Chinese: a tenth or more of its Han and Kana is Kana. */
export function isJapanese(text: string): boolean {
  return (text.match(kana)?.length ?? 0) * 10 >= (text.match(hanOrKana)?.length ?? 0);
}

function occurrences(text: string, name: string): number {
  let count = 0;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) count++;
  return count;
}

export function extractUnspacedEntities(
  title: readonly Sentence[],
  sentences: readonly Sentence[],
  max: number,
): Entity[] {
  const titleText = title.map((s) => s.text).join('\n');
  const bodyText = sentences.map((s) => s.text).join('\n');
  const japanese = isJapanese(`${titleText}\n${bodyText}`);
  const candidates = new Map<string, { type: Entity['type']; firstSentence: number }>();
  const visit = (sentence: Sentence, index: number) => {
    for (const { name, type } of namesIn(sentence.tokens, japanese)) {
      if (!candidates.has(name)) candidates.set(name, { type, firstSentence: index });
    }
  };
  title.forEach((s) => visit(s, 0));
  sentences.forEach((s, i) => visit(s, i));
  // A name inside a longer one of the same kind is that one (植田 of 植田和男), counted there.
  const names = [...candidates.keys()];
  const scored = names
    .filter(
      (name) =>
        !names.some(
          (other) =>
            other !== name &&
            other.includes(name) &&
            candidates.get(other)!.type === candidates.get(name)!.type,
        ),
    )
    .map((name) => {
      const { type, firstSentence } = candidates.get(name)!;
      const bodyMentions = Math.max(1, occurrences(bodyText, name));
      const titleMentions = occurrences(titleText, name);
      const position = 1 + (1 - firstSentence / Math.max(1, sentences.length));
      // `mentions` counts the headline's too, as the schema (and the spaced scripts' count) has it.
      const mentions = occurrences(bodyText, name) + titleMentions || 1;
      return { name, type, mentions, score: (bodyMentions + 2 * titleMentions) * position };
    });
  const top = Math.max(...scored.map((s) => s.score), 1);
  return scored
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map(({ name, type, mentions, score }) => ({
      name,
      type,
      salience: Math.round((score / top) * 100) / 100,
      mentions,
    }));
}
