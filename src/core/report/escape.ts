/**
 * Markdown escaping of the strings a run carries (question ids and texts, quotes, sources, config ids,
 * error messages): one set of rules for the Markdown report, the GitHub report and the editor's hovers
 * (issue #16 item 5). A run's string must never break a table, start a block (heading, list, quote),
 * link somewhere, run HTML, or mention someone, whatever renderer shows it (CommonMark, GFM, or a
 * renderer that allows HTML). Escape sequences and invisible controls go first, through the one
 * terminal sanitiser ({@link terminalSafe}): a report is read in terminals and editors too, and only
 * dropping the ESC byte left `[31m`, `]0;TITLE` behind.
 */
import { terminalSafe } from '../text/terminal';

/**
 * `s` as inert Markdown text on one line: escape sequences removed and other controls shown as
 * `\uXXXX` ({@link terminalSafe}); line breaks and tabs become one space; `&`, `<`, `>` become
 * HTML entities (no tag, no `<javascript:…>` autolink); Markdown punctuation `\ ` * _ [ ] # | ~` is
 * backslash-escaped (no emphasis, code, link `[x](…)`, heading or table cell break); an `@` that
 * could start a GitHub mention (at the start or after a character that is not a letter, digit or `_`)
 * gets a zero-width space after it (no mention, no notification); an `@` inside a word (`hit@5`,
 * `a@b`) is no mention and stays as it is — the entity showed in every metric name of a report read
 * in a terminal or an editor (`hit@&#8203;5`); `://` becomes `&#58;//` (no bare-URL autolink). The
 * rendered text reads like `s`.
 */
export function markdownText(s: string): string {
  return terminalSafe(s)
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]#|~]/g, (c) => `\\${c}`)
    .replace(/(^|[^A-Za-z0-9_])@/g, '$1@&#8203;')
    .replace(/:\/\//g, '&#58;//');
}

/**
 * `s` as a Markdown code span, safe in a table cell (after {@link terminalSafe}): the fence is one backtick longer than the
 * longest backtick run in `s` (CommonMark 6.1, so a backtick in `s` cannot close it), padded with a
 * space when `s` starts or ends with a backtick; line breaks and tabs become one space (a line break
 * could start a new block before inline parsing); `|` becomes `\|` (GFM tables split cells before
 * code spans, and drop that backslash inside a table).
 */
export function markdownCode(s: string): string {
  const t = terminalSafe(s).replace(/[\r\n\t]+/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** `s` (several lines kept) as a Markdown block quote: every line `> ` + {@link markdownText} of it. */
export function markdownQuote(s: string): string {
  return s.split(/\r\n|\r|\n/).map((l) => `> ${markdownText(l)}`).join('\n');
}
