/**
 * Reading run directories back (panel history, compare, `spanproof report`). Tolerant: a run killed
 * mid-way has a run.json with status `running`/`cancelled` and maybe no results; that is listed, not
 * an error. A folder without run.json is not a run.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SpanproofError } from '../errors';
import { readJsonFile, readJsonLines } from '../files/json';
import { assertKnownFormat, newerFormat } from '../files/format';
import { effectiveStatus, withEffectiveStatus } from './liveness';
import { checkEvidenceFile, checkQuestionRecord, checkRankingFile, checkResultsFile, checkRunFile, checkTimingsFile } from './validate';
import type { EvidenceFile, QuestionRecord, ResultsFile, RunData, RunFile, RunSummary, TimingsFile } from './types';
import { rankingView } from '../ranking/view';
import { UPIA_FORMAT, type AttacksFile, type InjectionStudy, type XpiaAttackFile } from '../safety/types';



const RUN_FIX = 'the run file is damaged; re-run the evaluation.';
/** A run file parsed; null when absent. A file holding JSON `null` is damaged, not absent (report said "no run.json"). */
function readJson<T>(file: string): T | null {
  const value = readJsonFile<T>(file, RUN_FIX);
  if (value === null && existsSync(file)) throw new SpanproofError('bad-input', 'holds JSON null, not a run file.', { file, fix: RUN_FIX });
  return value;
}

/** Parses questions.jsonl (one QuestionRecord per line; blank lines ignored), each line checked (./schema.ts). Errors name the line and field. */
export function readQuestionsJsonl(file: string): QuestionRecord[] {
  return readJsonLines<QuestionRecord>(file, 're-run the evaluation.', (value, line) => checkQuestionRecord<QuestionRecord>(value, file, line));
}

/** `<dir>/<name>` parsed and checked by `check`, or null when absent. */
function readChecked<T>(dir: string, name: string, check: (value: unknown, file: string) => T): T | null {
  const file = join(dir, name);
  const raw = readJson<unknown>(file);
  return raw === null ? null : check(raw, file);
}

/** Reads every file of a run directory. Throws SpanproofError('not-found') when `dir` has no run.json. */
export function readRun(dir: string): RunData {
  const d = resolve(dir);
  const raw = readJson<unknown>(join(d, 'run.json'));
  const run = raw === null ? null : withEffectiveStatus(checkRunFile<RunFile>(raw, join(d, 'run.json'))); // `running` whose writer is gone → `interrupted` (#16 item 16)
  if (!run) throw new SpanproofError('not-found', 'not a Spanproof run directory (no run.json).', { file: d, fix: 'pass a folder under .spanproof/runs/.' });
  const resultsRaw = readJson<unknown>(join(d, 'results.json'));
  assertKnownFormat(resultsRaw, 1, join(d, 'results.json')); // a newer Spanproof's run: say so (#16 item 15)
  // a damaged or hand-edited file is bad input naming the field, not a crash in the renderers
  const results = resultsRaw === null ? null : checkResultsFile<ResultsFile>(resultsRaw, join(d, 'results.json'));
  const timings = readChecked(d, 'timings.json', checkTimingsFile<TimingsFile>);
  // ranking.json of format 2 (SPEC §9 v2) or 1 (older runs): one view for every surface.
  const rankingRaw = readJson<unknown>(join(d, 'ranking.json'));
  assertKnownFormat(rankingRaw, 2, join(d, 'ranking.json'));
  const view = rankingView(checkRankingFile(rankingRaw, join(d, 'ranking.json')), timings, results);
  return {
    run,
    results,
    ranking: view?.entries ?? null,
    verdict: view?.verdict ?? null,
    timedVerdict: view?.timedVerdict ?? null,
    rankingFormat: view?.format ?? null,
    timings,
    questions: readQuestionsJsonl(join(d, 'questions.jsonl')),
    evidence: readChecked(d, 'evidence.json', checkEvidenceFile<EvidenceFile>),
    injection: readJson<InjectionStudy>(join(d, 'injection.json')),
    attacks: readAttacks(d),
  };
}

/**
 * `<dir>/attacks.json`, null when absent. An attacks.json written before UPIA existed is one bare XPIA
 * report (no `spanproof` field); it is read as `{spanproof: 1, xpia: {…, attack: 'xpia'}}`. A `upia`
 * entry of format 1 (no `format` field: it measured obedience to the injected instruction, not Azure's
 * harm-based defect) is not read as a result: it comes back as `upiaOutdated`, a message saying to run
 * the UPIA step again, and the surfaces show that message instead of a table.
 * @throws SpanproofError('bad-input') for a damaged file, or a `upia` entry of a newer format.
 */
export function readAttacks(dir: string): AttacksFile | null {
  const file = join(dir, 'attacks.json');
  const raw = readJson<Record<string, unknown>>(file);
  if (!raw) return null;
  if (raw.spanproof === 1) {
    const a = raw as unknown as AttacksFile;
    if (!a.upia) return a;
    const newer = newerFormat(a.upia, UPIA_FORMAT, 'format');
    if (newer !== null) throw new SpanproofError('bad-input', `the UPIA result was written by a newer Spanproof (format ${newer}); update Spanproof.`, { file, field: 'upia.format', fix: `update Spanproof to read it (this version reads UPIA format ${UPIA_FORMAT}).` });
    if (a.upia.format === UPIA_FORMAT) return a;
    const { upia: _old, ...rest } = a;
    return { ...rest, upiaOutdated: UPIA_OUTDATED };
  }
  if (Array.isArray(raw.configs)) return { spanproof: 1, xpia: { ...(raw as unknown as XpiaAttackFile), attack: 'xpia' } };
  throw new SpanproofError('bad-input', 'attacks.json is neither an attacks file (spanproof: 1) nor an XPIA report.', { file, fix: RUN_FIX });
}

/** Shown for a `upia` entry of format 1 (see {@link readAttacks}). */
export const UPIA_OUTDATED = "attacks.json holds a UPIA result of an older format (format 1: whether the answer obeyed the injected instruction, before UPIA used Azure's harm-based defect); it is not shown. Run the UPIA step again (spanproof run --generate --attack upia, or Spanproof: Run Attack Step…).";

/** What is wrong with a run file, without the file (the caller names the folder) or the error's fix. */
function damageReason(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  let m = e.message;
  if (e instanceof SpanproofError) {
    if (e.file && m.startsWith(`${e.file}: `)) m = m.slice(e.file.length + 2);
    if (e.fix && m.endsWith(` Fix: ${e.fix}`)) m = m.slice(0, -` Fix: ${e.fix}`.length);
  }
  return m.replace(/\.$/, '');
}

/**
 * Lists the runs under `runsRoot`, newest first by run.json `startedAt` (then by id: a folder named
 * with `--out` does not start with the timestamp, so the name alone put `zzz-old` before a newer run —
 * fresh-user #13); a folder whose run.json or results.json is damaged is left out and given to
 * `onDamaged` with the reason. A missing `runsRoot` has no runs.
 * @throws SpanproofError('bad-input') when `runsRoot` is a file (it was ENOTDIR, exit 3).
 */
export function listRuns(runsRoot: string, onDamaged?: (dir: string, reason: string) => void): RunSummary[] {
  if (!existsSync(runsRoot)) return [];
  if (!statSync(runsRoot).isDirectory()) throw new SpanproofError('bad-input', 'the runs folder is a file, not a folder.', { file: runsRoot, fix: 'pass the folder that holds the run folders with --runs-dir (or --workspace), or move that file away.' });
  const out: RunSummary[] = [];
  for (const name of readdirSync(runsRoot)) {
    const dir = join(runsRoot, name);
    let reading = 'run.json';
    try {
      if (!statSync(dir).isDirectory()) continue;
      const raw = readJson<unknown>(join(dir, 'run.json'));
      if (raw === null) continue; // no run.json (yet): not a run folder
      // the checks readRun makes (./schema.ts): a field of the wrong type is a damaged run here too,
      // not a TypeError in the listing (`startedAt: {}` crashed `spanproof runs`, #16 fresh-user pass)
      const run = checkRunFile<RunFile>(raw, join(dir, 'run.json'));
      reading = 'results.json';
      const results = readChecked(dir, 'results.json', checkResultsFile<ResultsFile>);
      const top = results?.configs.find((c) => c.rank === 1)?.id ?? null;
      reading = 'run.json';
      out.push({ id: run.id, dir, status: effectiveStatus(run), startedAt: run.startedAt, endedAt: run.endedAt, questions: results?.questions ?? null, configs: results?.configs.length ?? null, top });
    } catch (e) {
      // a damaged run is left out of the listing (readRun reports it when opened); the caller may say so
      onDamaged?.(dir, `damaged ${reading}: ${damageReason(e)}`);
    }
  }
  const started = (r: RunSummary) => Date.parse(r.startedAt) || 0;
  return out.sort((a, b) => started(b) - started(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
