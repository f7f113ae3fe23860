/**
 * Building the bias-study input from a run directory (SPEC §10): `evidence.json` (resolved questions
 * with spans), `questions.jsonl` (per question × config `results`, the final order of the pool) and
 * `chunks/<chunker>.jsonl` (written by `spanproof run --keep-chunks`).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SpanproofError } from '../errors';
import { readJsonLines } from '../files';
import { readRun } from '../runs';
import type { Span } from '../types';
import type { BiasInput } from './types';

/**
 * Reads `runDir` into a {@link BiasInput} (k and τ from results.json when present).
 * @throws SpanproofError('not-found') without run.json; ('bad-input') without evidence.json or chunks/.
 */
export function readBiasInputFromRun(runDir: string): BiasInput {
  const run = readRun(runDir);
  if (!run.evidence) throw new SpanproofError('bad-input', 'the run has no evidence.json (it did not finish, or predates it).', { file: runDir, fix: 're-run the evaluation.' });
  const dir = join(runDir, 'chunks');
  if (!existsSync(dir)) throw new SpanproofError('bad-input', 'the run kept no chunks (chunks/<chunker>.jsonl), which the study needs to label chunk IDs.', { file: runDir, fix: 're-run with `spanproof run --keep-chunks`.' });
  const chunks: Record<string, Span[]> = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
    const chunker = name.replace(/\.jsonl$/, '');
    chunks[chunker] = readJsonLines<Span>(join(dir, name), 're-run with --keep-chunks.').map((o) => ({ source: o.source, start: o.start, end: o.end }));
  }
  const lists = run.questions
    .filter((r) => r.status === 'ok')
    .map((r) => ({ question: r.question, config: r.config, chunker: r.config.split('/')[0], results: r.results.map((x) => ({ source: x.source, start: x.start, end: x.end })) }));
  return {
    questions: run.evidence.questions.map((q) => ({ id: q.id, match: q.match, spans: q.spans.map((s) => ({ source: s.source, start: s.start, end: s.end })) })),
    chunks,
    lists,
    k: run.results?.k ?? 5,
    tau: run.results?.tau ?? 0.9,
    seed: run.results?.seed ?? 42,
  };
}
