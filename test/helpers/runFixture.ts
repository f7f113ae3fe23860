/**
 * A small hand-built run directory (the files the grid writes: run.json, results.json, ranking.json,
 * questions.jsonl, evidence.json) over a one-document workspace, so the generation stage can be tested
 * without running the grid. Offsets are computed with indexOf on the document text.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type RunSettings } from '../../src/core/settings';
import { tempDir } from './tmp';

export const DOC = 'The default port is 8000. The server uses HTTP/1.1. Logs go to stderr. Paris is the capital of France.';
export const SOURCE = 'docs/server.md';

const span = (s: string) => {
  const start = DOC.indexOf(s);
  if (start < 0) throw new Error(`not in DOC: ${s}`);
  return { source: SOURCE, start, end: start + s.length };
};

export const QUESTIONS = [
  { id: 'q1', question: 'What is the default port?', answer: 'The default port is 8000.', evidence: 'The default port is 8000.' },
  { id: 'q2', question: 'Where do logs go?', answer: 'Logs go to stderr.', evidence: 'Logs go to stderr.' },
  { id: 'q3', question: 'Which protocol does the server use?', evidence: 'The server uses HTTP/1.1.' },
];

/** What the fake generator answers, by question text. */
export const ANSWERS: Record<string, string> = {
  'What is the default port?': 'The default port is 8000. It listens on all interfaces.',
  'Where do logs go?': 'Logs go to stderr.',
  'Which protocol does the server use?': 'The server uses HTTP/1.1.',
};

/** Config A retrieves the evidence first; config B retrieves an unrelated sentence first. */
export const CONFIGS = ['fixed/bm25/none', 'fixed/dense/none'];

export function makeRunDir(extraSettings: Partial<RunSettings> = {}): { workspace: string; runDir: string } {
  const workspace = tempDir('spanproof-judge-');
  mkdirSync(join(workspace, 'docs'), { recursive: true });
  writeFileSync(join(workspace, SOURCE), DOC);
  mkdirSync(join(workspace, '.spanproof'), { recursive: true });
  const gtFile = join(workspace, '.spanproof', 'groundtruth.json');
  writeFileSync(gtFile, JSON.stringify({ spanproof: 1, questions: QUESTIONS.map((q) => ({ id: q.id, question: q.question, ...(q.answer ? { answer: q.answer } : {}), evidence: [{ source: SOURCE, exact: q.evidence }] })) }));
  const runDir = join(workspace, '.spanproof', 'runs', 'r1');
  mkdirSync(runDir, { recursive: true });
  const settings: RunSettings = { ...DEFAULT_SETTINGS, k: 1, bootstrap: { resamples: 200, seed: 7 }, ...extraSettings };
  writeFileSync(join(runDir, 'run.json'), JSON.stringify({ id: 'r1', status: 'succeeded', progress: { finished: 6, total: 6 }, error: null, startedAt: '', endedAt: '', toolVersion: '0', settings, workspace, groundTruthFile: gtFile, runDir, location: { kind: 'workspace' }, corpusHash: '', groundTruthHash: '', acceptance: null, seed: 7 }));
  const configs = CONFIGS.map((id, i) => ({ id, chunker: 'fixed', retriever: id.split('/')[1], rerank: false, rank: i + 1, metrics: {} }));
  writeFileSync(join(runDir, 'results.json'), JSON.stringify({ spanproof: 1, k: 1, tau: 0.9, n: 2, configs, questions: 3 }, null, 2));
  writeFileSync(join(runDir, 'ranking.json'), JSON.stringify(CONFIGS.map((id, i) => ({ id, rank: i + 1, score: 1 - i, pareto: i === 0, explanation: '', latencyMs: 1, contextChars: 10, recommended: i === 0 }))));
  const lines: string[] = [];
  const other = span('Paris is the capital of France.');
  for (const q of QUESTIONS) {
    const ev = span(q.evidence);
    lines.push(JSON.stringify({ question: q.id, config: CONFIGS[0], status: 'ok', results: [{ ...ev, score: 2 }, { ...other, score: 1 }], pool: [], 'coverage@5': 1, 'hit@5': 1, rr: 1, cause: null }));
    lines.push(JSON.stringify({ question: q.id, config: CONFIGS[1], status: 'ok', results: [{ ...other, score: 2 }, { ...ev, score: 1 }], pool: [], 'coverage@5': q.id === 'q3' ? 0 : 0.5, 'hit@5': 0, rr: 0.5, cause: 'ranked-too-low' }));
  }
  writeFileSync(join(runDir, 'questions.jsonl'), lines.join('\n') + '\n');
  writeFileSync(join(runDir, 'evidence.json'), JSON.stringify({ questions: QUESTIONS.map((q) => ({ id: q.id, question: q.question, match: 'all', spans: [{ ...span(q.evidence), text: q.evidence }] })) }));
  return { workspace, runDir };
}
