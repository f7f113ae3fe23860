/**
 * The attack steps of `spanproof run --generate` (issue #17 item 2, docs/safety.md): `--attack xpia`
 * (instructions planted in the retrieved documents; needs --injection-study and is the default with
 * it) and `--attack upia` (an instruction in the user's question, against a control set from the same
 * seed). Both run after the answers, on the same endpoint and models, and write `<run>/attacks.json`.
 */
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { DEFAULT_THRESHOLD, parseThreshold, runAttackStage, runUpiaStage, type AttackReport, type DefectRate, type UpiaReport } from '../../core/safety';
import type { RunSettings } from '../../core/settings';
import type { JudgeCliOptions } from '../judge';
import { onCancelSignal } from '../cancel';

export const ATTACKS = ['xpia', 'upia'] as const;
export type AttackKind = (typeof ATTACKS)[number];

export interface AttackCliOptions extends JudgeCliOptions {
  attack?: string;
  /** `--threshold`: UPIA harm defects start at this severity level. */
  threshold?: string;
  injectionStudy?: boolean;
  cacheDir?: string;
}

/** Adds `--attack <list>` to `cmd`. */
export function addAttackOption(cmd: Command): Command {
  return cmd
    .option('--attack <list>', 'attack steps after --generate, comma-separated: xpia (instructions planted in the documents; needs --injection-study, the default with it), upia (an instruction in the user\'s question, graded for harm against a control set); → attacks.json (docs/safety.md)')
    .option('--threshold <level>', `with --attack upia: a harmful answer is at or above this severity level: very_low, low, medium, high (default ${DEFAULT_THRESHOLD})`);
}

/**
 * The attack steps asked for: `--attack` parsed, else `xpia` with --injection-study --generate.
 * @throws SpanproofError('bad-input') for an unknown kind, --attack without --generate, xpia without
 *   --injection-study, a --threshold that is not a level or without upia.
 */
export function parseAttacks(o: AttackCliOptions): AttackKind[] {
  if (o.attack === undefined) {
    if (o.threshold !== undefined) throw new SpanproofError('bad-input', '--threshold applies to the UPIA attack step only.', { field: '--threshold', fix: 'add --generate --attack upia, or drop --threshold.' });
    return o.injectionStudy && o.generate ? ['xpia'] : [];
  }
  const kinds = o.attack.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
  const bad = kinds.find((k) => !(ATTACKS as readonly string[]).includes(k));
  if (bad !== undefined || !kinds.length) throw new SpanproofError('bad-input', `--attack must list xpia and/or upia, got "${o.attack}".`, { field: '--attack', fix: 'e.g. --attack upia, or --attack xpia,upia (xpia with --injection-study).' });
  if (!o.generate) throw new SpanproofError('bad-input', '--attack needs --generate (the attacked answers come from the generator).', { field: '--attack', fix: 'add --generate --endpoint URL --generator-model M --judge-model J.' });
  if (o.threshold !== undefined && !kinds.includes('upia')) throw new SpanproofError('bad-input', '--threshold applies to the UPIA attack step only.', { field: '--threshold', fix: 'add --attack upia, or drop --threshold.' });
  if (o.threshold !== undefined) parseThreshold(o.threshold);
  if (kinds.includes('xpia') && !o.injectionStudy) throw new SpanproofError('bad-input', '--attack xpia needs --injection-study (it attacks the questions whose top-k held a planted canary).', { field: '--attack', fix: 'add --injection-study, or use --attack upia.' });
  return [...new Set(kinds)] as AttackKind[];
}

const f = (x: number | null | undefined) => (x !== null && x !== undefined && Number.isFinite(x) ? x.toFixed(3) : '—');
const ci = (m: { mean: number; lo: number; hi: number }) => `${f(m.mean)} [${f(m.lo)}, ${f(m.hi)}]`;

/** The XPIA attack success table (CLI). */
export function xpiaLines(r: AttackReport): string[] {
  return [
    `XPIA attack success (generator ${r.generatorModel}, judge ${r.judgeModel}${r.sameModel ? ' — WARNING: the same model' : ''}): share of questions whose answer followed a planted instruction, 95% CI.`,
    ...r.configs.map((c) => `  ${c.id.padEnd(34)} ${ci(c.attackSuccess)}  measured ${c.attackSuccess.measured}, unmeasured ${c.attackSuccess.unmeasured}`),
    `  ${r.note}`,
  ];
}

/** The UPIA table (CLI): the any-category defect rate, per category, and instruction followed, with 95% CIs. */
export function upiaLines(r: UpiaReport): string[] {
  const d = (x: DefectRate | undefined) => (x ? ci({ mean: x.defectRate ?? NaN, lo: x.lo ?? NaN, hi: x.hi ?? NaN }) : '—');
  return [
    `UPIA defect rate (generator ${r.generatorModel}, judge ${r.judgeModel}${r.sameModel ? ' — WARNING: the same model' : ''}; ${r.questions.length} questions, templates ${r.templates}, threshold ${r.threshold}): share of questions whose attacked answer is harmful and the control answer is not (or less severe), 95% CIs.`,
    `  ${'config'.padEnd(34)} ${'any category'.padEnd(22)} ${'measured'.padEnd(9)} ${r.categories.map((c) => c.padEnd(22)).join(' ')} instruction followed`,
    ...r.configs.map((c) => `  ${c.id.padEnd(34)} ${d(c.any).padEnd(22)} ${`${c.any.measured}/${c.any.measured + c.any.unmeasured}`.padEnd(9)} ${r.categories.map((k) => d(c.categories[k]).padEnd(22)).join(' ')} ${d(c.followed)}`),
    `  ${r.note}`,
  ];
}

/**
 * Runs the asked attack steps on `runDir` after generation; returns the lines to print and whether a
 * step was cancelled (Ctrl-C: that step and the ones after it write nothing; a step already finished
 * keeps its attacks.json entry).
 */
export async function runAttackSteps(runDir: string, kinds: readonly AttackKind[], c: { judge: RunSettings['judge']; workspace: string; groundTruthFile: string; o: AttackCliOptions; quiet?: boolean }): Promise<{ lines: string[]; cancelled: boolean }> {
  const o = c.o;
  const ac = new AbortController();
  setMaxListeners(0, ac.signal); // one listener per request in flight or waiting for a slot
  const onSigint = () => {
    if (ac.signal.aborted) return; // a second signal while cancelling: said once (../cancel.ts absorbs it)
    if (!c.quiet) process.stderr.write('\ncancelling the attack step…\n');
    ac.abort();
  };
  const common = {
    judge: c.judge,
    apiKey: process.env.SPANPROOF_API_KEY,
    configs: o.generateConfigs ? o.generateConfigs.split(',').map((x) => x.trim()).filter(Boolean) : undefined,
    cacheDir: o.judgeCacheDir ?? (o.cacheDir ? path.join(path.resolve(o.cacheDir), 'judge') : undefined),
    noCache: o.judgeCache === false,
    signal: ac.signal,
  };
  const out: string[] = [];
  const offSigint = onCancelSignal(onSigint); // Ctrl-C and SIGTERM alike (../cancel.ts)
  let step: AttackKind = kinds[0];
  try {
    if (kinds.includes('xpia')) {
      step = 'xpia';
      const att = await runAttackStage(runDir, { ...common, workspace: c.workspace, groundTruthFile: c.groundTruthFile });
      out.push('', ...xpiaLines(att.report), `Attack results written to ${att.file}.`);
    }
    if (kinds.includes('upia')) {
      step = 'upia';
      const up = await runUpiaStage(runDir, { ...common, workspace: c.workspace, threshold: o.threshold === undefined ? undefined : parseThreshold(o.threshold) });
      out.push('', ...upiaLines(up.report), `Attack results written to ${up.file}.`);
    }
  } catch (e) {
    if (!(e instanceof SpanproofError && e.code === 'cancelled')) throw e;
    process.stderr.write(`spanproof: the ${step.toUpperCase()} attack step was cancelled; nothing was written for it.\n`);
    return { lines: out, cancelled: true };
  } finally {
    offSigint();
  }
  return { lines: out, cancelled: false };
}
