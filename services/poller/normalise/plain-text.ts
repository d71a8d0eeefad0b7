// Plain text from the HTML that feeds carry: tags dropped, entities decoded,
// paragraphs kept as blank-line-separated blocks, whitespace collapsed.
import { convert, type HtmlToTextOptions } from 'html-to-text';

const options: HtmlToTextOptions = {
  wordwrap: false,
  preserveNewlines: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'iframe', format: 'skip' },
    { selector: 'figure', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable' },
    { selector: 'ul', options: { itemPrefix: '- ' } },
  ],
};

/** Longest text we keep for one field: beyond it a feed is stuffing, not writing. */
export const maxTextLength = 200_000;

export function plainText(html: string | null | undefined): string {
  if (!html) return '';
  const text = convert(html.length > 4 * maxTextLength ? html.slice(0, 4 * maxTextLength) : html, options);
  return text
    .split(/\n{2,}/)
    .map((block) =>
      block
        .replace(/[ \t\u00a0]+/g, ' ')
        .replace(/ ?\n ?/g, '\n')
        .trim(),
    )
    .filter(Boolean)
    .join('\n\n')
    .slice(0, maxTextLength);
}

/** One line of plain text (titles, authors): all whitespace collapsed. */
export function plainLine(html: string | null | undefined): string {
  return plainText(html).replace(/\s+/g, ' ').trim();
}
