/**
 * The `heading` chunker (SPEC §4).
 *
 * Markdown files (extension `.md`, `.mdx`, `.markdown`, any case):
 * - leading YAML front matter — a first line `---`, up to the next line `---` or `...` — is its own
 *   chunk and is never parsed as Markdown (so its closing `---` is never a Setext underline);
 * - the rest is parsed as CommonMark with markdown-it (block structure only; `headingStarts`). Every
 *   top-level heading (ATX or Setext) starts a section that runs to the next top-level heading of any
 *   level; text before the first heading is a section. `#` lines inside code fences or indented code
 *   are code, not headings. Headings nested in block quotes or list items do not start sections.
 * - a section (or front matter) longer than `maxSize` is split with `recursive` at `maxSize` with
 *   overlap 100.
 *
 * Other files: paragraphs separated by blank lines (lines holding only spaces/tabs) packed greedily
 * up to `min(1500, maxSize)`; a longer paragraph is split with `recursive` at that size (overlap 100).
 */
import MarkdownIt from 'markdown-it';
import { EOL, trimRange, type Range } from './ranges';
import { recursiveRanges } from './recursive';
import { splitOverlap } from './params';

/** Greedy packing size for non-Markdown files (SPEC §4). */
export const PLAIN_TEXT_PACK_SIZE = 1500;

const MARKDOWN_EXTENSION = /\.(md|mdx|markdown)$/i;

/** True when `source` is parsed as Markdown by `heading`. */
export function isMarkdownSource(source: string): boolean {
  return MARKDOWN_EXTENSION.test(source);
}

const FRONT_MATTER_OPEN = new RegExp(`^---[ \\t]*${EOL}`);
const FRONT_MATTER_CLOSE = new RegExp(`(?:^|${EOL})(?:---|\\.\\.\\.)[ \\t]*(?=${EOL}|$)`, 'g');

/** End offset (exclusive, before its line ending) of leading YAML front matter, or 0 when there is none. */
export function frontMatterEnd(text: string): number {
  const open = FRONT_MATTER_OPEN.exec(text);
  if (!open) return 0;
  // The opening line's own EOL is the `(?:^|EOL)` of an immediately following closing line.
  FRONT_MATTER_CLOSE.lastIndex = open[0].length - eolLengthAt(text, open[0].length);
  const close = FRONT_MATTER_CLOSE.exec(text);
  return close ? close.index + close[0].length : 0;
}

function eolLengthAt(text: string, end: number): number {
  return text.charCodeAt(end - 1) === 10 && text.charCodeAt(end - 2) === 13 ? 2 : 1;
}

/**
 * markdown-it in its CommonMark preset (no GFM tables or strikethrough, raw HTML on — HTML blocks
 * change block structure) with only the `normalize` and `block` core rules: CommonMark decides block
 * structure before inline structure ("block structure takes precedence", spec §Blocks and inlines),
 * so headings and code fences do not depend on the inline pass, which is skipped.
 *
 * Its block rule `reference` is off. markdown-it closes a link reference definition as a block of its
 * own, so a line after it that cannot interrupt a paragraph (`2) x`, `<a>`, an empty list item, a
 * lazy line after `> [a]: /u`) starts a new block there. In CommonMark a definition is part of a
 * paragraph (the spec's block phase sees only paragraph lines) and such a line continues it. With the
 * rule off the definitions stay paragraph lines and the block structure is CommonMark's; the one place
 * where definitions change block structure — a Setext underline under a paragraph made only of
 * definitions — is handled in `headingLines`.
 */
let blockParser: MarkdownIt.MarkdownIt | undefined;
/** The same parser with `reference` on: tells whether a Setext heading's text is only definitions. */
let referenceParser: MarkdownIt.MarkdownIt | undefined;

function blocks(): MarkdownIt.MarkdownIt {
  if (!blockParser) {
    blockParser = new MarkdownIt('commonmark');
    blockParser.core.ruler.enableOnly(['normalize', 'block']);
    blockParser.block.ruler.disable('reference');
  }
  return blockParser;
}

/**
 * True when `content` — a paragraph's lines (raw at the top level; as markdown-it's trimmed heading
 * text, container markers removed, when nested) — consists only of link reference definitions.
 */
function onlyDefinitions(content: string): boolean {
  if (!/^ {0,3}\[/.test(content)) return false;
  if (!referenceParser) {
    referenceParser = new MarkdownIt('commonmark');
    referenceParser.core.ruler.enableOnly(['normalize', 'block']);
  }
  return referenceParser.parse(content, {}).every((t) => t.type === 'reference_definition');
}

/**
 * Offsets (into `text`) where top-level Markdown headings (ATX or Setext) start, parsing
 * `text.slice(base)` as CommonMark with markdown-it (block structure only). The offset is that of the
 * heading's first character after its indentation: the `#`, or the first character of a Setext
 * heading's paragraph — which, as in micromark, includes link reference definitions on the lines
 * right above its text (`[a]: /u⏎Title⏎===` starts at `[`). These are the offsets of the `heading`
 * nodes among the root children of `mdast-util-from-markdown`, except in the cases listed in
 * docs/chunkers.md (a property test checks both). Headings nested in block quotes or list items
 * (token level > 0) are left out. Ascending; UTF-16 code units.
 */
export function headingStarts(text: string, base: number): number[] {
  // micromark drops one leading U+FEFF before parsing; markdown-it would read it as text. Skip it here.
  const from = text.charCodeAt(base) === 0xfeff ? base + 1 : base;
  return lineStartsToOffsets(text, from, headingLines(from === 0 ? text : text.slice(from)));
}

/** A Setext underline of 3 or more `-`: without heading text it is a thematic break. */
const THEMATIC_UNDERLINE = /^ {0,3}-{3,}[ \t]*$/;

/**
 * 0-based first lines of the top-level headings of `input`, ascending.
 *
 * CommonMark (commonmark.js `blockStarts`, micromark): a paragraph made only of link reference
 * definitions has no text to be a heading, so its Setext underline is none. A `---` underline is then
 * a thematic break, which ends the paragraph as the heading did: nothing changes but that a top-level
 * one is no heading. A `===`, `-` or `--` line is paragraph text instead (the definitions leave the
 * paragraph), and the paragraph stays open — later lines may continue it, lazily too. So the text is
 * edited (same length, same lines) and parsed again: the underline's `=`/`-` become `x`, which is
 * paragraph text; at the top level the definition lines also become blank, so that the paragraph —
 * and a heading it may still become — starts at the old underline, as micromark reports. One such
 * paragraph per extra parse (there are none in the shared corpora); every edit turns at least one
 * `=`/`-` into `x`, so the loop ends.
 */
function headingLines(input: string): number[] {
  let src = input;
  parse: for (;;) {
    const tokens = blocks().parse(src, {});
    const out: number[] = [];
    let starts: number[] | undefined; // offsets of the line starts of `src`, computed when first needed
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.type !== 'heading_open' || !t.map) continue;
      // The heading text (trimmed, container markers removed) is a cheap first test for definitions.
      if ((t.markup === '=' || t.markup === '-') && tokens[i + 1].content.startsWith('[')) {
        starts ??= lineStarts(src);
        const [first, end] = t.map;
        const paragraph = t.level === 0 ? src.slice(starts[first], starts[end - 1]) : tokens[i + 1].content;
        if (onlyDefinitions(paragraph)) {
          const underline = src.slice(starts[end - 1], lineEnd(src, starts[end - 1]));
          if (t.markup === '-' && THEMATIC_UNDERLINE.test(underline)) continue;
          const from = t.level === 0 ? starts[first] : starts[end - 1];
          src = src.slice(0, from) +
            src.slice(from, starts[end - 1]).replace(/[^\r\n]/g, ' ') +
            underline.replace(/[=-]/g, 'x') +
            src.slice(starts[end - 1] + underline.length);
          continue parse;
        }
      }
      if (t.level === 0) out.push(t.map[0]);
    }
    return out;
  }
}

/** Offset of the end (before its line break) of the line starting at `start`. */
function lineEnd(src: string, start: number): number {
  let i = start;
  while (i < src.length && src.charCodeAt(i) !== 10 && src.charCodeAt(i) !== 13) i++;
  return i;
}

/** Offsets of the starts of every line of `src` (`\r\n`, `\r` and `\n` each end one line). */
function lineStarts(src: string): number[] {
  const out = [0];
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 10 || (c === 13 && src.charCodeAt(i + 1) !== 10)) out.push(i + 1);
  }
  return out;
}

/**
 * Maps 0-based line numbers (ascending) of `text.slice(from)` to the offset of each line's first
 * character that is not a space or tab. markdown-it numbers lines after normalising CRLF, CR and LF to
 * LF, so each of `\r\n`, a lone `\r` and `\n` is one line break here too.
 */
function lineStartsToOffsets(text: string, from: number, lines: readonly number[]): number[] {
  const out: number[] = [];
  let line = 0;
  let i = from;
  const n = text.length;
  for (const target of lines) {
    while (line < target && i < n) {
      const c = text.charCodeAt(i++);
      if (c === 10) line++;
      else if (c === 13) {
        line++;
        if (text.charCodeAt(i) === 10) i++;
      }
    }
    let j = i;
    while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
    out.push(j);
  }
  return out;
}

function splitIfLong(text: string, r: Range, max: number, out: Range[]): void {
  const t = trimRange(text, r);
  if (!t) return;
  if (t.end - t.start > max) out.push(...recursiveRanges(text, t, max, splitOverlap(max)));
  else out.push(t);
}

function markdownRanges(text: string, maxSize: number): Range[] {
  const out: Range[] = [];
  const fm = frontMatterEnd(text);
  if (fm > 0) splitIfLong(text, { start: 0, end: fm }, maxSize, out);
  const bounds = [fm, ...headingStarts(text, fm).filter((h) => h > fm), text.length];
  for (let i = 0; i + 1 < bounds.length; i++) splitIfLong(text, { start: bounds[i], end: bounds[i + 1] }, maxSize, out);
  return out;
}

const BLANK_LINES = new RegExp(`${EOL}(?:[ \\t]*${EOL})+`, 'g');

/** Blank-line paragraphs packed greedily up to `pack` units; longer paragraphs split with `recursive`. */
function plainTextRanges(text: string, pack: number): Range[] {
  const paragraphs: Range[] = [];
  let prev = 0;
  for (const m of text.matchAll(BLANK_LINES)) {
    const t = trimRange(text, { start: prev, end: m.index });
    if (t) paragraphs.push(t);
    prev = m.index + m[0].length;
  }
  const last = trimRange(text, { start: prev, end: text.length });
  if (last) paragraphs.push(last);

  const out: Range[] = [];
  let cur: Range | null = null;
  for (const p of paragraphs) {
    if (p.end - p.start > pack) {
      if (cur) out.push(cur);
      cur = null;
      out.push(...recursiveRanges(text, p, pack, splitOverlap(pack)));
    } else if (cur && p.end - cur.start <= pack) {
      cur = { start: cur.start, end: p.end };
    } else {
      if (cur) out.push(cur);
      cur = { ...p };
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Raw ranges of the `heading` chunker for one document. */
export function headingChunkRanges(source: string, text: string, maxSize: number): Range[] {
  return isMarkdownSource(source) ? markdownRanges(text, maxSize) : plainTextRanges(text, Math.min(PLAIN_TEXT_PACK_SIZE, maxSize));
}
