/**
 * "Where the cut fell" for a miss: the evidence with the best chunk's boundaries (✂) drawn inside it,
 * the chunk's part bright, the rest dimmed, the evidence in <mark>. The text is a window of the
 * document around the evidence (read with the `readSpan` request; see `cutWindow`).
 */
import { html, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type { MissDetail } from '../../src/shared/protocol';
import { memoLast } from '../memo';

/** The document window the cut view shows: the evidence with up to 200 characters of the best chunk on either side, plus 60 of context. */
export function cutWindow(m: MissDetail): { source: string; start: number; end: number } {
  const e = m.evidence;
  const c = m.bestChunk;
  const sameDoc = !!c && c.source === e.source;
  const start = Math.max(0, Math.min(e.start, sameDoc ? Math.max(c.start, e.start - 200) : e.start) - 60);
  const end = Math.max(e.end, sameDoc ? Math.min(c.end, e.end + 200) : e.end) + 60;
  return { source: e.source, start, end };
}

/** Scrolls the box (not the page) so the evidence is in view, once per text. */
const scrollToMark = memoLast((_text: string) => (el?: Element) => {
  if (!el) return;
  requestAnimationFrame(() => {
    const mark = el.querySelector('mark') as HTMLElement | null;
    if (mark) (el as HTMLElement).scrollTop = Math.max(0, mark.offsetTop - 40); // pre is position: relative
  });
});

function segments(m: MissDetail, from: number, text: string): TemplateResult[] {
  const e = m.evidence;
  const c = m.bestChunk && m.bestChunk.source === e.source ? m.bestChunk : null;
  const to = from + text.length;
  const bounds = new Set(c ? [c.start, c.end] : []);
  const pts = [...new Set([from, e.start, e.end, ...(c ? [c.start, c.end] : []), to])].filter((x) => x >= from && x <= to).sort((a, b) => a - b);
  const out: TemplateResult[] = [];
  for (let i = 0; i < pts.length - 1; i++) {
    const [a, b] = [pts[i], pts[i + 1]];
    if (bounds.has(a)) out.push(html`<span class="scissors" title="chunk boundary">✂</span>`);
    const seg = text.slice(a - from, b - from);
    const cls = c && a >= c.start && b <= c.end ? 'in-chunk' : 'out-chunk';
    out.push(a >= e.start && b <= e.end ? html`<mark class=${cls}>${seg}</mark>` : html`<span class=${cls}>${seg}</span>`);
  }
  if (bounds.has(pts[pts.length - 1])) out.push(html`<span class="scissors">✂</span>`);
  return out;
}

/** `text`: the window's text (undefined while it loads, null when the document is not readable). */
export function cutView(m: MissDetail, text: string | null | undefined): TemplateResult {
  const e = m.evidence;
  const c = m.bestChunk;
  const w = cutWindow(m);
  const where = c
    ? `Best chunk ${c.source} [${c.start}, ${c.end}) covers ${Math.round(c.coverage * 100)}% of the evidence ${e.source} [${e.start}, ${e.end})${m.bestChunkRank ? `; it is ranked #${m.bestChunkRank}` : '; it is not in the candidate pool'}.`
    : 'No chunk overlaps the evidence.';
  return html`<section class="cut" data-testid="cut">
    <h3>Where the cut fell</h3>
    <p class="muted">${where}</p>
    ${text === undefined
      ? html`<pre class="chunk-text">…</pre>`
      : text === null
        ? html`<pre class="chunk-text">(document not available)</pre>`
        : html`<pre class="chunk-text" ${ref(scrollToMark(text))}>${segments(m, w.start, text)}</pre>`}
  </section>`;
}
