/**
 * The `heading` chunker (SPEC §4).
 *
 * Markdown files (extension `.md`, `.mdx`, `.markdown`, any case):
 * - leading YAML front matter — a first line `---`, up to the next line `---` or `...` — is its own
 *   chunk and is never parsed as Markdown (so its closing `---` is never a Setext underline);
 * - the rest is parsed with `mdast-util-from-markdown` (CommonMark; node positions are UTF-16
 *   offsets into the parsed string, checked by a test). Every top-level `heading` node (ATX or
 *   Setext) starts a section that runs to the next top-level heading of any level; text before the
 *   first heading is a section. `#` lines inside code fences are `code` nodes, not headings. Headings
 *   nested in block quotes or list items do not start sections.
 * - a section (or front matter) longer than `maxSize` is split with `recursive` at `maxSize` with
 *   overlap 100.
 *
 * Other files: paragraphs separated by blank lines (lines holding only spaces/tabs) packed greedily
 * up to `min(1500, maxSize)`; a longer paragraph is split with `recursive` at that size (overlap 100).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
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
 * micromark extension switching off the inline (text-level) constructs. CommonMark determines block
 * structure before inline structure ("block structure takes precedence", spec §Blocks and inlines),
 * so headings and code fences are unchanged, and parsing is ≈ 2× faster (bench/chunking.bench.ts).
 * A property test compares heading offsets with a full parse.
 */
const BLOCKS_ONLY = {
  disable: {
    null: ['attention', 'autolink', 'characterEscape', 'characterReference', 'codeText', 'hardBreakEscape', 'htmlText', 'labelEnd', 'labelStartImage', 'labelStartLink'],
  },
};

/**
 * Offsets (into `text`) where top-level Markdown headings start, parsing `text.slice(base)`.
 * `fullInline` parses inline constructs too (slower; used by tests as the reference).
 */
export function headingStarts(text: string, base: number, fullInline = false): number[] {
  const input = base === 0 ? text : text.slice(base);
  const tree = fullInline ? fromMarkdown(input) : fromMarkdown(input, { extensions: [BLOCKS_ONLY] });
  const out: number[] = [];
  for (const node of tree.children) {
    const off = node.type === 'heading' ? node.position?.start.offset : undefined;
    if (off !== undefined) out.push(base + off);
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
