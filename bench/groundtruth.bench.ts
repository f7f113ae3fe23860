/**
 * Corpus loading and ground-truth resolution benchmark (printed, never asserted), on the shipped
 * samples: loadCorpus; resolveGroundTruth when offsets are right (rule 1), when every offset is dropped
 * (rule 2 re-anchor for all evidence), on the prose corpus converted to LF (EOL-insensitive re-anchor),
 * and for stale quotes (nearest near-match scan over the largest FastAPI file). Best of 5 after a warm-up.
 *
 *   npx tsx bench/groundtruth.bench.ts
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/index';
import { readGroundTruth, resolveEvidence, resolveGroundTruth, type GroundTruthFile } from '../src/core/groundtruth/index';

const DATA = path.resolve(__dirname, '..', '..', 'shared', 'data');

async function best<T>(fn: () => T | Promise<T>, runs = 5): Promise<{ ms: number; value: T }> {
  let value = await fn();
  let ms = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    value = await fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, value };
}

const stripOffsets = (gt: GroundTruthFile): GroundTruthFile => ({
  ...gt, questions: gt.questions.map((q) => ({ ...q, evidence: q.evidence.map(({ start: _s, end: _e, ...rest }) => rest) })),
});

async function main(): Promise<void> {
  if (!existsSync(DATA)) {
    console.log(`groundtruth bench: ${DATA} is not present; skipped.`);
    return;
  }
  for (const name of ['fastapi-docs', 'prose']) {
    const root = path.join(DATA, name);
    const load = await best(() => loadCorpus(root));
    const corpus = load.value;
    const mb = corpus.documents.reduce((s, d) => s + d.bytes, 0) / 1e6;
    console.log(`${name}: loadCorpus ${corpus.documents.length} documents, ${mb.toFixed(2)} MB in ${load.ms.toFixed(1)} ms (${(mb / (load.ms / 1000)).toFixed(0)} MB/s)`);
    const gt = await readGroundTruth(path.join(DATA, `${name}.groundtruth.json`));
    const texts = new Map(corpus.documents.map((d) => [d.source, d.text]));
    const exact = await best(() => resolveGroundTruth(gt, (s) => texts.get(s)));
    const a = exact.value.acceptance;
    console.log(`  resolve, offsets right:   ${exact.ms.toFixed(2)} ms  (${a.resolved}/${a.total}, moved ${a.moved})`);
    const bare = stripOffsets(gt);
    const re = await best(() => resolveGroundTruth(bare, (s) => texts.get(s)));
    console.log(`  resolve, no offsets:      ${re.ms.toFixed(2)} ms  (${re.value.acceptance.resolved}/${re.value.acceptance.total}, moved ${re.value.acceptance.moved}, ambiguous ${re.value.acceptance.ambiguous.length})`);
    const lf = new Map([...texts].map(([s, t]) => [s, t.replace(/\r\n/g, '\n')]));
    const eol = await best(() => resolveGroundTruth(gt, (s) => lf.get(s)));
    console.log(`  resolve, corpus as LF:    ${eol.ms.toFixed(2)} ms  (${eol.value.acceptance.resolved}/${eol.value.acceptance.total}, moved ${eol.value.acceptance.moved})`);
  }
  const notes = (await loadCorpus(path.join(DATA, 'fastapi-docs'))).documents.reduce((a, b) => (a.text.length >= b.text.length ? a : b));
  const quote = 'a quote that is not in the release notes about dependency injection and background tasks';
  const stale = await best(() => resolveEvidence({ source: notes.source, exact: quote }, notes.text));
  console.log(`stale quote with nearest near-match over ${notes.source} (${notes.text.length} code units): ${stale.ms.toFixed(1)} ms (similarity ${stale.value.status === 'stale' ? stale.value.nearest?.similarity ?? 'none' : '-'})`);
}

void main();
