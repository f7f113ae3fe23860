/**
 * Writing a run directory (SPEC §10–§11) — the only place run files are written. run.json first
 * (`status: running`), so a crash or cancel still leaves a record; progress into run.json at most
 * once a second; then results.json, ranking.json, questions.jsonl, evidence.json, chunks/ (with
 * --keep-chunks) and timings.json; run.json last with the final status (`succeeded`, `failed`,
 * `cancelled`). Every file through src/core/files `writeFileAtomic`; results.json, ranking.json,
 * questions.jsonl and evidence.json as deterministic JSON (./json.ts), byte-identical for identical
 * inputs. Earlier runs are never touched.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Chunk } from '../types';
import { isSpanproofError } from '../errors';
import { writeFileAtomic } from '../files';
import { readJsonFile } from '../files/json';
import type { BiasStudy } from '../bias/types';
import type { InjectionStudy, UpiaAttackFile, XpiaAttackFile } from '../safety/types';
import type { SafetyReport } from '../safety/harm';
import { createRunDir } from './dir';
import { readAttacks } from './read';
import { currentWriter } from './liveness';
import { stableStringify } from './json';
import type { RankingFile } from '../ranking/types';
import type { EvidenceFile, QuestionRecord, ResultsFile, RunFile, TimingsFile } from './types';
import { makeDirs } from '../files/dirs';

/** What a finished grid run writes besides run.json. */
export interface RunOutputs {
  results: ResultsFile;
  /** ranking.json (format 2, src/core/ranking). */
  ranking: RankingFile;
  /** One per (question, config); written sorted by question (in `questionOrder`), then config id. */
  records: QuestionRecord[];
  /** Question ids in ground-truth order. */
  questionOrder: readonly string[];
  evidence: EvidenceFile;
  /** `chunks/<chunker>.jsonl` (--keep-chunks). */
  chunks?: ReadonlyArray<{ chunker: string; chunks: readonly Chunk[] }>;
  timings: TimingsFile;
}

const jsonLines = (lines: string[]) => lines.join('\n') + (lines.length ? '\n' : '');

/** A run directory being written. */
export class RunWriter {
  private lastProgress = 0;

  private constructor(readonly dir: string, readonly run: RunFile) {}

  /**
   * Creates the run directory (src/core/runs/dir.ts `createRunDir`) and writes run.json `running`.
   * @param init run.json without the fields the directory decides (`id`, `runDir`, `location`).
   * @throws SpanproofError('bad-input') when `outDir` exists or nothing is writable.
   */
  static create(opts: { workspace: string; runsRoot?: string; outDir?: string; inputsKey: string; init: Omit<RunFile, 'id' | 'runDir' | 'location'> }): RunWriter {
    const created = createRunDir({ workspace: opts.workspace, runsRoot: opts.runsRoot, outDir: opts.outDir, inputsKey: opts.inputsKey });
    const { init } = opts;
    const run: RunFile = { id: created.id, status: init.status, progress: init.progress, error: init.error, startedAt: init.startedAt, endedAt: init.endedAt, toolVersion: init.toolVersion, settings: init.settings, workspace: init.workspace, groundTruthFile: init.groundTruthFile, runDir: created.dir, location: created.location, corpusHash: init.corpusHash, groundTruthHash: init.groundTruthHash, writer: currentWriter(), acceptance: init.acceptance, seed: init.seed, counts: init.counts };
    const w = new RunWriter(created.dir, run);
    w.writeRunJson();
    return w;
  }

  writeRunJson(): void {
    writeFileAtomic(join(this.dir, 'run.json'), JSON.stringify(this.run, null, 2) + '\n');
  }

  /** Records progress in run.json, at most once a second. */
  progress(p: { done: number; total: number; stage: string }): void {
    if (performance.now() - this.lastProgress <= 1000) return;
    this.lastProgress = performance.now();
    this.run.progress = { finished: p.done, total: p.total, stage: p.stage };
    this.writeRunJson();
  }

  /** Writes every result file of a finished run (run.json is written by {@link finish}). */
  writeOutputs(o: RunOutputs): void {
    const qOrder = new Map(o.questionOrder.map((id, i) => [id, i]));
    const sorted = [...o.records].sort((a, b) => (qOrder.get(a.question)! - qOrder.get(b.question)!) || (a.config < b.config ? -1 : a.config > b.config ? 1 : 0));
    writeFileAtomic(join(this.dir, 'results.json'), stableStringify(o.results, 2) + '\n');
    writeFileAtomic(join(this.dir, 'ranking.json'), stableStringify(o.ranking, 2) + '\n');
    writeFileAtomic(join(this.dir, 'questions.jsonl'), jsonLines(sorted.map((r) => stableStringify(r))));
    writeFileAtomic(join(this.dir, 'evidence.json'), stableStringify(o.evidence, 2) + '\n');
    if (o.chunks) {
      makeDirs(join(this.dir, 'chunks'));
      for (const st of o.chunks) {
        writeFileAtomic(join(this.dir, 'chunks', `${st.chunker}.jsonl`), jsonLines(st.chunks.map((c) => JSON.stringify({ chunker: st.chunker, id: c.id, source: c.source, start: c.start, end: c.end, text: c.text }))));
      }
    }
    writeFileAtomic(join(this.dir, 'timings.json'), JSON.stringify(o.timings, null, 2) + '\n');
  }

  /**
   * A shard's extra files for `spanproof merge` (src/core/grid/merge.ts): shard.json and
   * shard-items.jsonl (one item per line, numbers at full precision).
   */
  writeShard(shard: unknown, itemLines: readonly string[]): void {
    writeFileAtomic(join(this.dir, 'shard.json'), stableStringify(shard, 2) + '\n');
    writeFileAtomic(join(this.dir, 'shard-items.jsonl'), jsonLines([...itemLines]));
  }

  /**
   * `models-ledger.json`: the requests the run's endpoint models sent (the judges' ledger shape). Never
   * throws: a ledger that cannot be written must not hide the run's own outcome.
   */
  writeModelsLedger(ledger: unknown): void {
    try {
      writeFileAtomic(join(this.dir, 'models-ledger.json'), JSON.stringify(ledger, null, 2) + '\n');
    } catch { /* the run's outcome matters more */ }
  }

  /** Writes the final run.json of a run that ran to its end. */
  finish(status: 'succeeded' | 'failed', error: RunFile['error'], counts: NonNullable<RunFile['counts']>): void {
    this.run.status = status;
    if (error) this.run.error = error;
    this.run.progress = { finished: this.run.progress.total, total: this.run.progress.total, stage: 'done' };
    this.run.endedAt = new Date().toISOString();
    this.run.counts = counts;
    this.writeRunJson();
  }

  /** Records a run stopped by `e`: status `cancelled` (SpanproofError 'cancelled') or `failed`. Never throws. */
  abort(e: unknown): void {
    const cancelled = isSpanproofError(e) && e.code === 'cancelled';
    this.run.status = cancelled ? 'cancelled' : 'failed';
    this.run.error = { code: isSpanproofError(e) ? e.code : 'internal', message: e instanceof Error ? e.message : String(e) };
    this.run.endedAt = new Date().toISOString();
    try { this.writeRunJson(); } catch { /* the original error matters more */ }
  }
}

/** The bias study of a run (SPEC §7.5) as JSON: `<runDir>/bias.json`, or `file` (`spanproof bias --out`). */
export function writeBiasStudy(runDir: string, study: BiasStudy, file = join(runDir, 'bias.json')): string {
  writeFileAtomic(file, `${JSON.stringify(study, null, 2)}\n`);
  return file;
}

/** The injection exposure study of a run (issue #17) as deterministic JSON: `<runDir>/injection.json`. */
export function writeInjectionStudy(runDir: string, study: InjectionStudy): string {
  const file = join(runDir, 'injection.json');
  writeFileAtomic(file, `${stableStringify(study, 2)}\n`);
  return file;
}

/** The content-harm report of a run's generated answers (`spanproof safety <run dir>`): `<runDir>/safety.json`. */
export function writeSafetyReport(runDir: string, report: SafetyReport): string {
  const file = join(runDir, 'safety.json');
  writeFileAtomic(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/**
 * One attack step of a run into `<runDir>/attacks.json` (src/core/safety/types `AttacksFile`): the
 * entry of `report.attack` (`xpia` from `run --injection-study --generate`, `upia` from
 * `--attack upia`) is replaced, the other kind's entry is kept.
 * @throws SpanproofError('bad-input') when the existing attacks.json is damaged.
 */
export function writeAttackReport(runDir: string, report: XpiaAttackFile | UpiaAttackFile): string {
  const file = join(runDir, 'attacks.json');
  const current = readAttacks(runDir) ?? { spanproof: 1 };
  // An older-format UPIA entry (current.upiaOutdated) is kept as it is until a UPIA step replaces it.
  const keptUpia = current.upiaOutdated ? (readJsonFile<{ upia?: unknown }>(file, 're-run the attack step.')?.upia) : current.upia;
  const next = report.attack === 'xpia' ? { xpia: report, upia: keptUpia } : { xpia: current.xpia, upia: report };
  writeFileAtomic(file, `${JSON.stringify({ spanproof: 1, xpia: next.xpia, upia: next.upia }, null, 2)}\n`);
  return file;
}

/**
 * A V8 CPU profile of the run's worker thread (`spanproof run --profile`, SPANPROOF_PROFILE=1):
 * `<runDir>/worker.cpuprofile`, the JSON the Chrome DevTools / VS Code profilers open. Not part of the
 * run's results (timings-like: it differs between identical runs). Returns the file.
 */
export function writeRunProfile(runDir: string, profile: unknown): string {
  const file = join(runDir, 'worker.cpuprofile');
  writeFileAtomic(file, JSON.stringify(profile));
  return file;
}
