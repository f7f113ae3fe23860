/**
 * Answer-level datasets for `spanproof score azure|ragas` (SPEC §11, §13): no retrieval, only a
 * generated answer against reference answers, scored with the generation metrics of SPEC §7.3
 * (`src/core/metrics/generation`: SQuAD F1/EM, NLTK BLEU, rouge-score ROUGE, NLTK METEOR and GLEU,
 * keyword overlap) per item, and their means with a 95% percentile-bootstrap CI over items
 * (`src/core/stats`, B resamples, seeded).
 *
 * Formats:
 * - Azure AI evaluation JSONL, single turn: `{query, context?, response, ground_truth}`;
 *   conversation: `{messages: [{role, content, context?}…]}` or `{conversation: {messages}}` — every
 *   assistant turn is an item (query = the preceding user turn; reference = the turn's `ground_truth`).
 * - RAGAS JSONL: `{user_input, response, reference, retrieved_contexts?}`.
 * A whole-file JSON array of the same records is accepted too (row = 1-based position in the array).
 * A line that is not a usable item is rejected with its line number and the reason; an item without
 * a reference is kept but unmeasured (`measured/total` in every aggregate) — never scored as 0.
 *
 * Judge metrics (SPEC §14) plug in through {@link AnswerJudge}: same items, results beside the
 * generation scores, unmeasured as a state.
 */
import { SpanproofError } from '../errors';
import { MAX_JSON_DEPTH, parseJsonLines, tooDeepPath } from '../files';
import { GENERATION_METRICS, scoreGeneration, type GenerationMetric, type TokenizationMode } from '../metrics/generation';
import { bootstrapResamples, percentileCI } from '../stats';
import { commonestReason, readTextFile, requirePath } from '../import/common';
import { suggestCommand } from '../import/detect';
import { parseRagasJsonl } from '../import/ragas';
import { weknoraMetrics } from '../compat/weknora-compat';

export interface AnswerItem {
  /** 1-based line of the input file (the first line of a conversation for its turns). */
  line: number;
  /** `line N` or `line N, turn T`. */
  id: string;
  question: string;
  response: string;
  /** Reference answers (empty → generation metrics unmeasured). */
  references: string[];
  contexts: string[];
}

/** A judge metric (SPEC §14), e.g. groundedness; supplied by the judges module. */
export interface AnswerJudge {
  name: string;
  judge(item: AnswerItem): Promise<{ score: number; reason?: string } | { unmeasured: true; reason: string }>;
}

export interface ScoreOptions {
  /** Generation metrics to compute (default: em, f1, bleu1, bleu2, bleu4, rouge1, rouge2, rougeL, meteor, gleu). */
  metrics?: readonly GenerationMetric[];
  /** `unicode` (default) or `reference` (each metric's reference tokeniser). */
  tokenization?: TokenizationMode;
  /** Bootstrap resamples (default 2000) and seed (default 42). */
  resamples?: number;
  seed?: number;
  judges?: readonly AnswerJudge[];
  /** `weknora`: also report WeKnora's six generation numbers (`weknora.bleu1` …, src/core/compat/weknora-compat.ts, quirks W5–W8 included) beside the standard ones. */
  compat?: 'weknora';
}

export interface AnswerScoreReport {
  format: 'azure' | 'ragas';
  input: string;
  rowsRead: number;
  items: number;
  rejected: Array<{ row: number; reason: string }>;
  tokenization: TokenizationMode;
  /** metric → mean with CI over measured items, plus `measured`/`total`. */
  aggregate: Record<string, { mean: number; lo: number; hi: number; measured: number; total: number }>;
  perItem: Array<{ id: string; line: number; scores: Record<string, number | { unmeasured: true; reason: string }> }>;
  /** Tokeniser / implementation used per metric. */
  implementations: Record<string, string>;
  notes: string[];
}

export const DEFAULT_ANSWER_METRICS: readonly GenerationMetric[] = ['em', 'f1', 'bleu1', 'bleu2', 'bleu4', 'rouge1', 'rouge2', 'rougeL', 'meteor', 'gleu'];

/** What {@link readAzureJsonl} / {@link readRagasAnswers} return. */
export interface AnswerRead {
  items: AnswerItem[];
  rejected: Array<{ row: number; reason: string }>;
  rowsRead: number;
  /** Plain-language notes on how the file was read (e.g. read as a JSON array). */
  notes?: string[];
}

/** The line standing for an array item nested too deep: parseJsonLines rejects it as nested too deep. */
const TOO_DEEP_LINE = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);

/**
 * A whole-file JSON array (first non-space character `[` and the text parses as JSON) given where JSON
 * Lines is expected: its elements as one JSON text per line, so element i (1-based) is "line" i.
 * Returns null for anything else (JSON Lines stays as it is).
 */
export function jsonArrayAsLines(text: string): string | null {
  if (!text.trimStart().startsWith('[')) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(data)) return null;
  // An item nested too deep cannot be re-serialised (stack overflow): it becomes a line the reader rejects.
  return data.map((x) => (tooDeepPath(x) ? TOO_DEEP_LINE : (JSON.stringify(x) ?? 'null'))).join('\n');
}

const ARRAY_NOTE = 'read as a JSON array (not JSON Lines): row numbers are the 1-based positions of the items in the array.';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const ctxList = (v: unknown): string[] => (typeof v === 'string' ? (v ? [v] : []) : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Reads Azure AI evaluation JSONL (single-turn or conversation lines, mixed allowed). */
export function readAzureJsonl(file: string): AnswerRead {
  requirePath(file, false, 'pass the path of an Azure AI evaluation JSONL file.');
  const items: AnswerItem[] = [];
  const rejected: Array<{ row: number; reason: string }> = [];
  let rowsRead = 0;
  const text = readTextFile(file, 'Azure JSONL');
  const asArray = jsonArrayAsLines(text);
  parseJsonLines(asArray ?? text).forEach((l) => {
    rowsRead++;
    const line = l.line;
    if (l.error !== undefined) return void rejected.push({ row: line, reason: l.error });
    const o = l.value as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return void rejected.push({ row: line, reason: 'not a JSON object' });
    const conv = (o.conversation as { messages?: unknown } | undefined)?.messages ?? o.messages;
    if (conv !== undefined) {
      if (!Array.isArray(conv)) return void rejected.push({ row: line, reason: '"messages" is not a list' });
      let lastUser = '';
      let turn = 0;
      let any = false;
      for (const [k, m] of (conv as Array<Record<string, unknown>>).entries()) {
        const role = str(m?.role);
        const content = str(m?.content);
        if (!role || content === null) return void rejected.push({ row: line, reason: `messages[${k}] lacks "role" or string "content"` });
        if (role === 'user') lastUser = content;
        if (role === 'assistant') {
          turn++;
          any = true;
          const gt = str(m.ground_truth) ?? str(o.ground_truth);
          items.push({ line, id: `line ${line}, turn ${turn}`, question: lastUser, response: content, references: gt ? [gt] : [], contexts: ctxList(m.context) });
        }
      }
      if (!any) rejected.push({ row: line, reason: 'conversation has no assistant turn to score' });
      return;
    }
    const response = str(o.response);
    if (response === null) return void rejected.push({ row: line, reason: 'missing string "response" (single-turn lines need query, response, ground_truth)' });
    const gt = o.ground_truth;
    const refs = typeof gt === 'string' ? [gt] : Array.isArray(gt) ? gt.filter((x): x is string => typeof x === 'string') : [];
    items.push({ line, id: `line ${line}`, question: str(o.query) ?? '', response, references: refs, contexts: ctxList(o.context) });
  });
  return { items, rejected, rowsRead, notes: asArray === null ? [] : [ARRAY_NOTE] };
}

/** Reads RAGAS JSONL rows that carry a `response`. */
export function readRagasAnswers(file: string): AnswerRead {
  requirePath(file, false, 'pass the path of a RAGAS JSONL file.');
  const text = readTextFile(file, 'RAGAS JSONL');
  const asArray = jsonArrayAsLines(text);
  const { rows, bad, read } = parseRagasJsonl(asArray ?? text);
  const rejected = bad.map((b) => ({ row: b.line, reason: b.reason }));
  const items: AnswerItem[] = [];
  for (const r of rows) {
    if (r.response === undefined) { rejected.push({ row: r.line, reason: 'no "response" to score (a RAGAS dataset without generated answers — import it with `spanproof import ragas` instead)' }); continue; }
    items.push({ line: r.line, id: `line ${r.line}`, question: r.user_input, response: r.response, references: r.reference ? [r.reference] : [], contexts: r.retrieved_contexts ?? [] });
  }
  return { items, rejected: rejected.sort((a, b) => a.row - b.row), rowsRead: read, notes: asArray === null ? [] : [ARRAY_NOTE] };
}

/**
 * The error for a `spanproof score` input with no item to score (an empty file, or every row
 * rejected): says why (the commonest rejection reason) and, when the file looks like another
 * dataset, which command reads it (src/core/import/detect.ts).
 */
export function nothingToScoreError(format: 'azure' | 'ragas' | 'memory', input: string, rowsRead: number, rejected: ReadonlyArray<{ reason: string }>): SpanproofError {
  const top = commonestReason(rejected);
  const why = rowsRead === 0 ? 'the file has no items' : `0 of ${rowsRead} rows could be scored${top ? ` (most often: ${top})` : ''}`;
  const expect = format === 'azure' ? 'JSON Lines of {query, response, ground_truth} or {messages: [...]}'
    : format === 'ragas' ? 'JSON Lines of {user_input, response, reference}' : 'a JSON array of {query, context, generated_answer, reference_answer}';
  return new SpanproofError('bad-input', `score ${format}: nothing to score — ${why}.`, {
    file: input, fix: suggestCommand(input, `spanproof score ${format}`, `give ${expect}.`),
  });
}

/**
 * Scores answer items with generation metrics (and judges, when given).
 * @throws SpanproofError('bad-input') for an unknown metric name.
 */
export async function scoreAnswers(format: 'azure' | 'ragas', input: string, read: AnswerRead, options: ScoreOptions = {}): Promise<AnswerScoreReport> {
  const metrics = options.metrics ?? DEFAULT_ANSWER_METRICS;
  for (const m of metrics) if (!GENERATION_METRICS.includes(m)) throw new SpanproofError('bad-input', `unknown metric "${m}".`, { field: '--metrics', fix: `use some of ${GENERATION_METRICS.join(', ')}.` });
  const tokenization = options.tokenization ?? 'unicode';
  const implementations: Record<string, string> = {};
  const perItem: AnswerScoreReport['perItem'] = [];
  const columns = new Map<string, number[]>();
  const compatNames = options.compat === 'weknora' ? ['bleu1', 'bleu2', 'bleu4', 'rouge1', 'rouge2', 'rougel'] as const : [];
  for (const name of [...metrics, ...compatNames.map((m) => `weknora.${m}`), ...(options.judges ?? []).map((j) => j.name)]) columns.set(name, []);
  for (const it of read.items) {
    const scores: AnswerScoreReport['perItem'][number]['scores'] = {};
    if (it.references.length) {
      for (const s of scoreGeneration(it.response, it.references, { metrics, tokenization })) {
        scores[s.metric] = s.value;
        implementations[s.metric] ??= `${s.implementation}; tokens: ${s.tokenizer}`;
        columns.get(s.metric)!.push(s.value);
      }
    } else {
      for (const m of metrics) { scores[m] = { unmeasured: true, reason: 'no reference answer' }; columns.get(m)!.push(NaN); }
    }
    if (compatNames.length) {
      const w = it.references.length ? weknoraMetrics({ gts: [], ids: [], generated: it.response, reference: it.references[0] }) : null;
      for (const m of compatNames) {
        scores[`weknora.${m}`] = w ? w[m] : { unmeasured: true, reason: 'no reference answer' };
        columns.get(`weknora.${m}`)!.push(w ? w[m] : NaN);
      }
      implementations['weknora.*'] ??= 'WeKnora metric/*.go as reimplemented in weknora-compat.ts (smoothed BLEU on every order, distinct-n-gram case-sensitive ROUGE; first reference only)';
    }
    for (const j of options.judges ?? []) {
      const r = await j.judge(it);
      scores[j.name] = 'unmeasured' in r ? r : r.score;
      columns.get(j.name)!.push('unmeasured' in r ? NaN : r.score);
    }
    perItem.push({ id: it.id, line: it.line, scores });
  }
  const rs = bootstrapResamples(read.items.length, options.resamples ?? 2000, options.seed ?? 42);
  const aggregate: AnswerScoreReport['aggregate'] = {};
  for (const [name, vals] of columns) {
    const measured = vals.filter((v) => !Number.isNaN(v)).length;
    const ci = measured ? percentileCI(vals, rs) : { mean: NaN, lo: NaN, hi: NaN };
    aggregate[name] = { mean: ci.mean, lo: ci.lo, hi: ci.hi, measured, total: vals.length };
  }
  const notes = [...(read.notes ?? []), `${tokenization === 'unicode' ? 'Unicode word tokens (Intl.Segmenter) for every metric' : "each metric's reference tokeniser"}; BLEU without smoothing (NLTK default).`, `95% percentile bootstrap CI over items, B = ${options.resamples ?? 2000}, seed ${options.seed ?? 42}.`];
  const noRef = read.items.filter((i) => !i.references.length).length;
  if (noRef) notes.push(`${noRef} item(s) have no reference answer: generation metrics unmeasured for them (not 0).`);
  return { format, input, rowsRead: read.rowsRead, items: read.items.length, rejected: read.rejected, tokenization, aggregate, perItem, implementations, notes };
}
