/**
 * The `--fail-under METRIC=VALUE` gates of `spanproof run` and `spanproof merge` (SPEC §9 "CI gate"):
 * parsed (the value within the metric's range), resolved at the run's k before the run starts, and
 * applied to the deterministic verdict's recommendation (or `--gate-config ID`).
 */
import { SpanproofError } from '../../core/errors';
import { metricDef, parseMetricKey, resolvePrimaryMetric, resultMetricKeys } from '../../core/metrics/registry';
import { planConfigs, planExternalConfigs } from '../../core/grid/plan';
import type { RunSettings } from '../../core/settings';
import type { GridRunResult } from '../../shared/protocol';

/** The range of the `acceptance` gate: the resolved / total rate of the ground truth. */
const ACCEPTANCE_RANGE: readonly [number, number] = [0, 1];

/** A threshold as written: a plain decimal (`0.8`, `.8`, `1`; a minus sign is then out of range) — no exponent, hex or `Infinity`. */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The metric names `--fail-under` takes, for a fix (`hit@k` = hit at the run's k). */
function gateMetricNames(): string {
  return `acceptance, hit@k, ${resultMetricKeys(5).join(', ')} (hit@k = hit at the run's k; any cutoff, e.g. hit@20, up to the run's k)`;
}

/**
 * Parses `METRIC=VALUE` (METRIC a registry key such as `hit@5`, `hit@k`, `mrr`, or `acceptance`);
 * VALUE is a plain decimal in the metric's range (the registry's `range`, [0, 1] for every span metric
 * — a threshold of 1.01 could never pass). `0x1`, `1e-400` (which is 0), `Infinity` and an empty value
 * are refused: a gate must read as the number it is.
 * @throws SpanproofError('bad-input') naming the flag, the value and the range or the valid metrics.
 */
export function parseGate(spec: string): { metric: string; value: number } {
  const m = /^([^=]*)=(.*)$/.exec(spec);
  const metric = m?.[1].trim() ?? '';
  const text = m?.[2].trim() ?? '';
  if (!m || !metric) {
    throw new SpanproofError('bad-input', `--fail-under "${spec}" is not METRIC=VALUE.`, { field: '--fail-under', fix: `give a metric and a threshold, e.g. --fail-under hit@5=0.8; metrics: ${gateMetricNames()}.` });
  }
  if (!(metric === 'acceptance' || parseMetricKey(metric, 1) !== null)) {
    throw new SpanproofError('bad-input', `--fail-under "${spec}": "${metric}" is not a metric.`, { field: '--fail-under', fix: `use one of ${gateMetricNames()}, e.g. --fail-under hit@5=0.8.` });
  }
  const [lo, hi] = metric === 'acceptance' ? ACCEPTANCE_RANGE : metricDef(metric, 1).range;
  if (!DECIMAL.test(text)) {
    throw new SpanproofError('bad-input', `--fail-under "${spec}": the threshold ${text ? `"${text}"` : 'is empty; it'} must be a decimal number from ${lo} to ${hi}.`, { field: '--fail-under', fix: `write it as a plain decimal, e.g. --fail-under ${metric}=0.8.` });
  }
  const value = Number(text);
  if (!(value >= lo && value <= hi)) {
    throw new SpanproofError('bad-input', `--fail-under "${spec}": the threshold ${text} is outside the range of ${metric}, [${lo}, ${hi}].`, { field: '--fail-under', fix: `give a threshold from ${lo} to ${hi}, e.g. --fail-under ${metric}=0.8.` });
  }
  return { metric, value };
}

/**
 * Resolves gate metrics at the run's k (`hit@k` → `hit@10`) and checks each is a key results.json will
 * have, and that `--gate-config` names a config of the grid — before the run starts.
 * @throws SpanproofError('bad-input') naming the flag and listing what is valid.
 */
export function resolveGates(gates: ReadonlyArray<{ metric: string; value: number }>, settings: RunSettings, gateConfig?: string): Array<{ metric: string; value: number }> {
  const keys = resultMetricKeys(settings.k, resolvePrimaryMetric(settings.primaryMetric, settings.k, settings.poolSize));
  const out = gates.map((g) => {
    if (g.metric === 'acceptance') return g;
    const p = parseMetricKey(g.metric, settings.k)!;
    const key = p.cutoff === null ? p.family : `${p.family}@${p.cutoff}`;
    if (!keys.includes(key)) throw new SpanproofError('bad-input', `--fail-under ${g.metric}: this run (k = ${settings.k}) reports no ${key}.`, { field: '--fail-under', fix: `use one of acceptance, ${keys.join(', ')}.` });
    return { metric: key, value: g.value };
  });
  if (gateConfig !== undefined) {
    const ids = [...planConfigs(settings), ...planExternalConfigs(settings)].map((c) => c.id);
    if (!ids.includes(gateConfig)) throw new SpanproofError('bad-input', `--gate-config "${gateConfig}" is not a config of this grid.`, { field: '--gate-config', fix: `use one of ${ids.join(', ')}.` });
  }
  return out;
}

/**
 * The `--fail-under` values parsed, and `--gate-config` refused without one: it only says which config
 * the gates read, so alone it would be silently ignored (the user believes the run is gated).
 * @throws SpanproofError('bad-input') as {@link parseGate}, or naming `--gate-config`.
 */
export function parseGates(specs: readonly string[], gateConfig: string | undefined): Array<{ metric: string; value: number }> {
  const gates = specs.map(parseGate);
  if (gateConfig !== undefined && gates.length === 0) {
    throw new SpanproofError('bad-input', `--gate-config "${gateConfig}" is given without --fail-under, so nothing would be gated.`, { field: '--gate-config', fix: `add the gate, e.g. --fail-under hit@k=0.8 --gate-config ${gateConfig}, or drop --gate-config.` });
  }
  return gates;
}

/**
 * Applies resolved gates to a finished (or merged) run: on the deterministic verdict's recommendation
 * (or `gateConfig`), never on a timing-dependent choice. Prints one line per gate on stderr — `gate
 * passed: …` or `gate failed: …` with the metric, its value, the config and the threshold; true when any failed.
 */
export function applyGates(gates: ReadonlyArray<{ metric: string; value: number }>, results: GridRunResult['results'], verdict: GridRunResult['verdict'], gateConfig?: string): boolean {
  const acc = results.acceptance;
  const gated = gateConfig ?? verdict.recommended;
  const gatedCfg = results.configs.find((c) => c.id === gated);
  let failed = false;
  for (const g of gates) {
    const v = g.metric === 'acceptance' ? (acc.total ? acc.resolved / acc.total : 1) : gatedCfg?.metrics[g.metric]?.mean ?? NaN;
    const passed = v >= g.value;
    if (!passed) failed = true;
    process.stderr.write(`gate ${passed ? 'passed' : 'failed'}: ${g.metric} = ${Number.isFinite(v) ? v.toFixed(4) : 'n/a'}${g.metric === 'acceptance' ? '' : ` (${gated ?? 'no config'}${gateConfig ? '' : ', recommended'})`} ${passed ? '≥' : '<'} ${g.value}\n`);
  }
  return failed;
}
