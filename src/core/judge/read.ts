/**
 * Reading a run's answers back (the panel's Answers tab, reports): answers.jsonl, ledger.json and
 * results.json `"answers"`. Tolerant of a run without answers (null); a damaged line is an error
 * naming the file and line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanproofError } from '../errors';
import type { AnswersData } from '../../shared/answers';
import type { AnswerRecord, AnswersSummary, LedgerFile } from './types';

function json<T>(file: string): T | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new SpanproofError('bad-input', `not valid JSON: ${(e as Error).message}`, { file, fix: 're-run the generation (spanproof generate <run dir>).' });
  }
}

/** The answers of a run, or null when it has none. Throws SpanproofError('bad-input') naming the damaged file/line. */
export function readAnswers(runDir: string): AnswersData | null {
  const file = join(runDir, 'answers.jsonl');
  if (!existsSync(file)) return null;
  const records: AnswerRecord[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      records.push(JSON.parse(line) as AnswerRecord);
    } catch (e) {
      throw new SpanproofError('bad-input', `not valid JSON: ${(e as Error).message}`, { file, field: `line ${i + 1}`, fix: 're-run the generation (spanproof generate <run dir>).' });
    }
  });
  const results = json<{ answers?: AnswersSummary }>(join(runDir, 'results.json'));
  const evidence = json<{ questions?: Array<{ id: string; question: string }> }>(join(runDir, 'evidence.json'));
  return {
    summary: results?.answers ?? null,
    records,
    ledger: json<LedgerFile>(join(runDir, 'ledger.json')),
    questions: Object.fromEntries((evidence?.questions ?? []).map((q) => [q.id, q.question])),
  };
}
