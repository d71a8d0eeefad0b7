// Words of the scripts the English tokenizer cannot cut. wink-nlp gives a run of Chinese, Japanese, Thai,
// Lao, Khmer or Burmese as one unknown token, punctuation and all ("中国半导体产业发展迅速。"), and a
// Korean word with its particle ("삼성전자가"); then nothing downstream finds a word in it: a summary's
// sentences share no terms, a documentary on 半导体 finds no article about it. So:
// - a run of those scripts is cut into words by ICU's dictionaries (Intl.Segmenter, in every Node build
//   with full ICU): 中国|半导体|产业|发展|迅速|。 Function words (Chinese 的, 表示; Japanese particles,
//   which are written in Hiragana) are stop words;
// - Korean, which does space its words, keeps them, with the case particle taken off for the stem
//   (삼성전자가 → 삼성전자), so that a topic and a text that inflect a noun differently still meet.
import { segmentsInPieces, unspacedScripts } from '../../runtime/dictionary-words.ts';
import type { Token } from './token.ts';

/** Scripts ICU cuts by dictionary, and the prolonged sound mark (ー) inside Katakana words. */
const dictionaryScript = new RegExp(`[${unspacedScripts}]`, 'u');
const hangul = /\p{sc=Hangul}/u;
const onlyHiragana = /^[\p{sc=Hiragana}\u30fc]+$/u;
const numeric = /^[\p{N}.,]+$/u;

/** Whether a text has any character this module cuts or stems (a quick test before doing either). */
export const hasUnspacedWords = (text: string): boolean => dictionaryScript.test(text) || hangul.test(text);

const list = (words: string) => words.split(/\s+/).filter((w) => w.length > 0);

/**
 * Words that say nothing of what a text is about: Chinese particles, prepositions, conjunctions,
 * pronouns, measure words and adverbs, the verbs of reporting and the nouns every story uses; the
 * Japanese ones written in Kanji (those written in Hiragana are all stop words). One set for both: ICU's
 * dictionary is one, and a Kanji word means the same in either often enough.
 */
export const unspacedStopWords: ReadonlySet<string> = new Set([
  ...list(
    '的 了 是 在 和 与 及 或 将 把 被 从 对 向 于 为 以 而 也 都 就 还 又 再 很 更 最 这 那 其 该 此 各 每 个 约 等 ' +
      '之 中 有 无 不 没 已 并 但 若 则 即 所 由 着 过 后 前 时 年 月 日 号 次 名 位 种 些 们 他 她 它 我 你 ' +
      '我们 他们 她们 你们 它们 这个 那个 这些 那些 一个 一些 一直 没有 已经 可以 可能 能够 应该 需要 希望 ' +
      '因为 所以 但是 如果 以及 以上 以下 之后 之前 之间 其中 这样 那样 什么 怎么 如何 为何 时候 目前 ' +
      '而且 并且 不过 然而 由于 对于 关于 根据 按照 为了 此次 这次 本次 此外 另外 同时 通过 包括 其他 ' +
      '表示 认为 指出 称 说 说道 强调 介绍 透露 据悉 了解 显示 表明 发现 进行 开始 继续 成为 出现 ' +
      '宣布 发布 报道 报导 消息 记者 新闻 相关 有关 方面 问题 情况 工作 今年 去年 明年 今天 昨天 明天 ' +
      '今日 昨日 近日 日前 当天 当日 现在 未来 仍然 还是 或者 不少 很多 许多 所有 一切 任何 ' +
      '预计 预期 或将 将会 正在 曾经 一样 非常 特别 主要 重要 进一步',
  ),
  ...list(
    '今回 昨年 来年 今月 先月 来月 今週 先週 明日 同日 同社 同氏 当時 現在 今後 場合 必要 予定 関係 ' +
      '問題 時間 方針 発表 記者 会見 報道 一方 一部 全体 自身 分 円 人 件 社 氏 者 内 外 後',
  ),
]);

/**
 * Korean case and topic particles, longest first. Taken off a word only when two syllables or more stay
 * (국가 "nation" keeps its 가), and a topic is stemmed as its articles are, so a word that merely ends
 * like a particle is cut alike on both sides.
 */
const koreanParticles = list(
  '에서는 에게서 으로서 으로써 에서 에게 으로 로서 로써 까지 부터 처럼 보다 은 는 이 가 을 를 의 에 와 과 도 로 만',
);

function koreanStem(word: string): string {
  for (const particle of koreanParticles)
    if (word.endsWith(particle) && [...word].length - [...particle].length >= 2)
      return word.slice(0, -particle.length);
  return word;
}

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** The token's words, if it is a run of those scripts or a Korean word; otherwise the token itself. */
export function unspacedTokens(token: Token): Token[] {
  if (dictionaryScript.test(token.text)) {
    const tokens: Token[] = [];
    let spaced = token.spaced;
    for (const { segment, isWordLike } of segmentsInPieces(segmenter, token.text)) {
      if (/^\s+$/u.test(segment)) {
        spaced = true;
        continue;
      }
      const normal = segment.toLowerCase();
      const kind = !isWordLike ? 'punctuation' : numeric.test(segment) ? 'number' : 'word';
      tokens.push({
        text: segment,
        normal,
        stem: normal,
        lemma: normal,
        pos: kind === 'punctuation' ? 'PUNCT' : kind === 'number' ? 'NUM' : 'X',
        kind,
        stopWord: kind === 'word' && (unspacedStopWords.has(normal) || onlyHiragana.test(normal)),
        negated: false,
        spaced,
      });
      spaced = false;
    }
    return tokens;
  }
  if (token.kind === 'unk' && hangul.test(token.text)) {
    const stem = koreanStem(token.normal);
    return [{ ...token, kind: 'word', pos: 'X', stem, lemma: stem }];
  }
  return [token];
}
