/**
 * The attack steps of `spanproof run --generate` (issue #17 item 2, docs/safety.md): `--attack xpia`
 * (instructions planted in the retrieved documents; needs --injection-study and is the default with
 * it) and `--attack upia` (an instruction in the user's question, against a control set from the same
 * seed). Both run after the answers, on the same endpoint and models, and write `<run>/attacks.json`.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { runAttackStage, runUpiaStage, type AttackReport, type UpiaReport } from '../../core/safety';
import type { RunSettings } from '../../core/settings';
import type { JudgeCliOptions } from '../judge';

export const ATTACKS = ['xpia', 'upia'] as const;
export type AttackKind = (typeof ATTACKS)[number];

export interface AttackCliOptions extends JudgeCliOptions {
  attack?: string;
  injectionStudy?: boolean;
  cacheDir?: string;
}

/** Adds `--attack <list>` to `cmd`. */
export function addAttackOption(cmd: Command): Command {
  return cmd.option('--attack <list>', 'attack steps after --generate, comma-separated: xpia (instructions planted in the documents; needs --injection-study, the default with it), upia (an instruction in the user\'s question, against a control set); → attacks.json (docs/safety.md)');
}

/**
 * The attack steps asked for: `--attack` parsed, else `xpia` with --injection-study --generate.
 * @throws SpanproofError('bad-input') for an unknown kind, --attack without --generate, xpia without --injection-study.
 */
export function parseAttacks(o: AttackCliOptions): AttackKind[] {
  if (o.attack === undefined) return o.injectionStudy && o.generate ? ['xpia'] : [];
  const kinds = o.attack.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
  const bad = kinds.find((k) => !(ATTACKS as readonly string[]).includes(k));
  if (bad !== undefined || !kinds.length) throw new SpanproofError('bad-input', `--attack must list xpia and/or upia, got "${o.attack}".`, { field: '--attack', fix: 'e.g. --attack upia, or --attack xpia,upia (xpia with --injection-study).' });
  if (!o.generate) throw new SpanproofError('bad-input', '--attack needs --generate (the attacked answers come from the generator).', { field: '--attack', fix: 'add --generate --endpoint URL --generator-model M --judge-model J.' });
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

/** The UPIA table (CLI): attacked, control, attacked − control with their 95% CIs. */
export function upiaLines(r: UpiaReport): string[] {
  return [
    `UPIA attack success (generator ${r.generatorModel}, judge ${r.judgeModel}${r.sameModel ? ' — WARNING: the same model' : ''}; ${r.questions.length} questions, templates ${r.templates}): share whose answer followed the instruction injected into the question, against the control set, 95% CIs.`,
    `  ${'config'.padEnd(34)} ${'attacked'.padEnd(22)} ${'control'.padEnd(22)} attacked − control`,
    ...r.configs.map((c) => `  ${c.id.padEnd(34)} ${ci(c.attacked).padEnd(22)} ${ci(c.control).padEnd(22)} ${c.difference.mean >= 0 ? '+' : ''}${ci(c.difference)}  (${c.difference.pairs} pairs)`),
    `  ${r.note}`,
  ];
}

/** Runs the asked attack steps on `runDir` after generation; returns the lines to print. */
export async function runAttackSteps(runDir: string, kinds: readonly AttackKind[], c: { judge: RunSettings['judge']; workspace: string; groundTruthFile: string; o: AttackCliOptions }): Promise<string[]> {
  const o = c.o;
  const common = {
    judge: c.judge,
    apiKey: process.env.SPANPROOF_API_KEY,
    configs: o.generateConfigs ? o.generateConfigs.split(',').map((x) => x.trim()).filter(Boolean) : undefined,
    cacheDir: o.judgeCacheDir ?? (o.cacheDir ? path.join(path.resolve(o.cacheDir), 'judge') : undefined),
    noCache: o.judgeCache === false,
  };
  const out: string[] = [];
  if (kinds.includes('xpia')) {
    const att = await runAttackStage(runDir, { ...common, workspace: c.workspace, groundTruthFile: c.groundTruthFile });
    out.push('', ...xpiaLines(att.report), `Attack results written to ${att.file}.`);
  }
  if (kinds.includes('upia')) {
    const up = await runUpiaStage(runDir, { ...common, workspace: c.workspace });
    out.push('', ...upiaLines(up.report), `Attack results written to ${up.file}.`);
  }
  return out;
}
