/**
 * Reading a run's answers back (the panel's Answers tab, reports): answers.jsonl, ledger.json and
 * results.json `"answers"`. Tolerant of a run without answers (null); a damaged line is an error
 * naming the file and line.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile, readJsonLines } from '../files/json';
import type { AnswersData } from './types';
import type { AnswerRecord, AnswersSummary, LedgerFile } from './types';

const FIX = 're-run the generation (spanproof generate <run dir>).';
const json = <T>(file: string): T | null => readJsonFile<T>(file, FIX);

/**
 * The answers of a run, or null when it has none. When only `answers.partial.jsonl` exists (a generate
 * stopped by a kill or a full disk), its records are returned with `partial: true` and no summary.
 * Throws SpanproofError('bad-input') naming the damaged file/line.
 */
export function readAnswers(runDir: string): AnswersData | null {
  const ledger = json<LedgerFile>(join(runDir, 'ledger.json'));
  let file = join(runDir, 'answers.jsonl');
  let partial = false;
  // A generate still running, or killed, left its partial file (and a `running` ledger): those are the answers.
  if (!existsSync(file) || (ledger?.status === 'running' && existsSync(join(runDir, 'answers.partial.jsonl')))) {
    file = join(runDir, 'answers.partial.jsonl');
    if (!existsSync(file)) return null;
    partial = true;
  }
  const records = readJsonLines<AnswerRecord>(file, FIX);
  const results = json<{ answers?: AnswersSummary }>(join(runDir, 'results.json'));
  const evidence = json<{ questions?: Array<{ id: string; question: string }> }>(join(runDir, 'evidence.json'));
  return {
    ...(partial ? { partial: true as const } : {}),
    summary: partial ? null : (results?.answers ?? null),
    records,
    ledger,
    questions: Object.fromEntries((evidence?.questions ?? []).map((q) => [q.id, q.question])),
  };
}
