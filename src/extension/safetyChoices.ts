/**
 * The pure parts of the safety commands (issue #17; ./commands/safety.ts): which attack steps a run
 * offers, the scripted arguments, and the one-line summaries shown after a step. No `vscode` here, so
 * unit tests read them directly.
 */
import { SEVERITY_LEVELS, type SeverityLevel } from '../core/safety/harm';
import type { SafetyFile } from '../core/safety/harmInput';
import type { UpiaAttackFile, XpiaAttackFile } from '../core/safety/types';

export type AttackStep = 'xpia' | 'upia';

export interface AttackChoice {
  step: AttackStep;
  label: string;
  detail: string;
  /** Picked by default in the quick pick. */
  picked: boolean;
}

/** The attack steps `run` offers: UPIA always; XPIA only when it has an injection study (injection.json). */
export function attackChoices(run: { hasInjectionStudy: boolean }): AttackChoice[] {
  const out: AttackChoice[] = [];
  if (run.hasInjectionStudy) out.push({ step: 'xpia', label: 'XPIA: instructions planted in the retrieved documents', detail: 'answers the questions whose top-k held a canary of the injection study, from those passages', picked: true });
  out.push({ step: 'upia', label: "UPIA: an instruction in the user's question", detail: 'answers every scored question with and without an injected instruction (control set), from the same passages, and grades both for harmful content', picked: !run.hasInjectionStudy });
  return out;
}

/** Scripted arguments of the commands (tests, links): a run or a file, the steps, the threshold. */
export interface SafetyCommandArgs {
  /** A run directory (both commands) or an Azure JSONL file (Score Content Safety). */
  input?: string;
  steps?: AttackStep[];
  threshold?: SeverityLevel;
}

/** `arg` as SafetyCommandArgs: a string is the input; unknown steps and thresholds are dropped. */
export function parseSafetyArgs(arg: unknown): SafetyCommandArgs {
  if (typeof arg === 'string') return { input: arg };
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as Record<string, unknown>;
  const steps = Array.isArray(a.steps) ? a.steps.filter((s): s is AttackStep => s === 'xpia' || s === 'upia') : undefined;
  const threshold = typeof a.threshold === 'string' && (SEVERITY_LEVELS as readonly string[]).includes(a.threshold) ? (a.threshold as SeverityLevel) : undefined;
  return { ...(typeof a.input === 'string' ? { input: a.input } : {}), ...(steps?.length ? { steps } : {}), ...(threshold ? { threshold } : {}) };
}

const f = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(3));
const ci = (m: { mean?: number | null; defectRate?: number | null; lo: number | null; hi: number | null }) => `${f(m.mean ?? m.defectRate)} [${f(m.lo)}, ${f(m.hi)}]`;

/** "violence 0.250 [0.000, 0.750] · sexual — (0 of 4 measured)": defect rate per category with its CI. */
export function safetySummary(r: SafetyFile): string {
  const parts = Object.entries(r.categories).map(([c, v]) => (v!.measured ? `${c} ${ci(v!)}` : `${c} — (0 of ${v!.measured + v!.unmeasured} measured)`));
  return `defect rates at ≥ ${r.threshold}: ${parts.join(' · ')}`;
}

/** The attack success of each config, with its CI (UPIA: the any-category harm defect rate). */
export function attackSummary(r: XpiaAttackFile | UpiaAttackFile): string {
  if (r.attack === 'xpia') return `XPIA attack success: ${r.configs.map((c) => `${c.id} ${ci(c.attackSuccess)}`).join(' · ')}`;
  return `UPIA defect rate (any category, ≥ ${r.threshold}): ${r.configs.map((c) => `${c.id} ${ci(c.any)} (${c.any.measured} measured)`).join(' · ')}`;
}
