/**
 * THE definition of Spanproof's settings (SPEC §11 `--config FILE`, §12 VS Code `spanproof.<key>`):
 * one zod schema whose entries carry their default and their documentation. Everything else derives
 * from it — the `RunSettings` type and `DEFAULT_SETTINGS` (./index.ts), parsing with errors naming
 * the key (./parse.ts), what a changed key invalidates (./invalidation.ts), VS Code's
 * `contributes.configuration` and restricted settings (./contributes.ts, written into package.json
 * by `npm run gen:settings`, checked by a unit test) and the CLI flags' allowed values
 * ({@link CHUNKER_IDS}, {@link RETRIEVER_IDS}).
 *
 * Adding a setting = adding one entry here: `setting(type, default, meta)` for a value,
 * `group(shape, meta)` for a nested object (contributed to VS Code as dotted leaves,
 * `spanproof.weights.quality`). Every top-level entry says what it `invalidates`; every value has a
 * `description`. Keys are the VS Code keys without `spanproof.`.
 */
import { z } from 'zod';
import { isHttpUrl } from '../net/url';
import { globProblem } from '../corpus/glob';

/** What a changed setting makes stale, from the cheapest to recompute to the most expensive. */
export const INVALIDATIONS = ['ranking', 'metrics', 'retrieval', 'index', 'corpus', 'groundtruth'] as const;
export type Invalidation = (typeof INVALIDATIONS)[number];

/**
 * Groups of the VS Code settings UI (`contributes.configuration` as an array of sections), by id; a
 * value's `category` picks one (default `general`). `order` sorts sections and, within one, values.
 */
export const SETTING_CATEGORIES = {
  general: { title: 'Spanproof', order: 0 },
  corpus: { title: 'Corpus and ground truth', order: 1 },
  chunking: { title: 'Chunkers', order: 2 },
  retrieval: { title: 'Retrieval and models', order: 3 },
  verdict: { title: 'Metrics and verdict', order: 4 },
  judges: { title: 'Answers and judges (opt-in)', order: 5 },
  export: { title: 'Export (opt-in)', order: 6 },
} as const satisfies Record<string, { title: string; order: number }>;
export type SettingCategory = keyof typeof SETTING_CATEGORIES;

/** Documentation and VS Code presentation of one value (a leaf of the schema). */
export interface ValueMeta {
  /** Plain-text description (VS Code `description`; also the CLI/config documentation). */
  description: string;
  /** VS Code `markdownDescription` (shown instead of `description` in the settings UI). */
  markdownDescription?: string;
  /** VS Code `enumDescriptions`, one per enum value, same order. */
  enumDescriptions?: string[];
  /** VS Code configuration scope; absent = VS Code's default (`window`). */
  scope?: 'application' | 'machine' | 'window' | 'resource' | 'language-overridable' | 'machine-overridable';
  /** Position within its category in the settings UI; absent = its place in the schema. */
  order?: number;
  category?: SettingCategory;
  /** A path or endpoint: ignored in an untrusted workspace (VS Code `restrictedConfigurations`). */
  restricted?: boolean;
  /** Extra JSON Schema keywords for VS Code that zod does not express (e.g. `uniqueItems`). */
  jsonSchema?: Record<string, unknown>;
}

/** Metadata of a top-level entry (a value or a group). */
export interface EntryMeta {
  /** What a change of this key makes stale (the extension's "results are stale" notice); null = nothing a run caches depends on it. */
  invalidates?: Invalidation | null;
}

export type SettingMeta = ValueMeta & EntryMeta;
/** Metadata of a group (a nested object): what its top-level key invalidates, and the category and scope its values take unless they say otherwise. */
export type GroupMeta = EntryMeta & Pick<ValueMeta, 'category' | 'scope'> & { description?: string };

/** The metadata of each schema node (`setting`/`group` results), read by the derivations (./walk.ts). */
export const settingMeta = new WeakMap<z.ZodType, SettingMeta | GroupMeta>();

/** A value with its default and documentation. */
function setting<T extends z.ZodType>(type: T, def: z.util.NoUndefined<z.output<T>>, meta: SettingMeta) {
  const node = type.default(def);
  settingMeta.set(node, meta);
  return node;
}

/** A nested object of values (every key optional in input, defaults filled in); unknown keys are errors. */
function group<S extends z.ZodRawShape>(shape: S, meta: GroupMeta = {}) {
  const node = z.strictObject(shape).prefault({} as z.input<z.ZodObject<S, z.core.$strict>>);
  settingMeta.set(node, meta);
  return node;
}

const posInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();

/**
 * Smallest chunk size (characters, UTF-16 code units) of every chunker's size setting: a chunk never
 * splits a surrogate pair, so a size of 1 cannot hold every character. The one bound the settings
 * check and src/core/chunking/params.ts both say (they said "≥ 1" and "≥ 2").
 */
export const MIN_CHUNK_SIZE = 2;
const chunkSize = z.number().int().min(MIN_CHUNK_SIZE);

/**
 * Most threads per ONNX session (`threads`). A workspace file may set it (it is not restricted), and
 * onnxruntime spins up and joins its pool without heeding signals: 1000 threads held a run at 100 %
 * CPU past Ctrl-C, 100000 grew to 16 GB. 64 is beyond the useful parallelism of one session on the
 * machines we run on (2 is the measured best for the exact search, src/core/retrieval/dense-ort.ts).
 */
export const MAX_THREADS = 64;

/**
 * Fewest bootstrap resamples a run accepts: with B = 0 every interval was NaN and the verdict named a
 * wrong "cheapest" config; below ~100 the 2.5 % / 97.5 % percentiles rest on one or two resamples.
 */
export const MIN_RESAMPLES = 100;

/**
 * Most bootstrap resamples a run accepts: 50 × SPEC §7.4's B = 2000. The resamples are B arrays of n
 * question indices held at once (4·B·n bytes: 100000 × 1000 questions = 400 MB); 10⁸ ran V8 out of
 * memory (exit 134, the run left `running`). Past ~10000 the Monte Carlo error of a 95 % percentile
 * interval is far below its sampling error over questions, so more buys nothing.
 */
export const MAX_RESAMPLES = 100_000;

/**
 * Most sentences on each side of a semantic chunker's embedding window (`windowSentences`): a window
 * is 2w + 1 sentences, so past the document's length every window is the whole text — 3000 took a
 * 200 kB document from 0.5 s to 25 s and 770 MB (quadratic in its size); 20 costs ≈ 1.2 s there.
 */
export const MAX_WINDOW_SENTENCES = 20;

/**
 * Most retries of one request (endpoint models, external retrievers, judges). A workspace file may set
 * them: with 10⁹ a dead endpoint was retried (with back-off) for as long as the run lived, and a paid one
 * billed each attempt; 10 retries already span minutes of back-off.
 */
export const MAX_RETRIES = 10;

/** Most requests in flight to one endpoint: 10⁶ opened as many sockets at once; 64 is past any useful parallelism of a 2-core client. */
export const MAX_CONCURRENCY = 64;

/** Most questions one drafting session asks for (`draft.count`, `--count`): each costs model calls on a possibly paid endpoint, and 10⁹ would draft until stopped. */
export const MAX_DRAFT_COUNT = 1000;

/** Longest timeout in ms: Node's `setTimeout` limit (2³¹ − 1 ms, ≈ 24.8 days); a longer one fires after 1 ms, timing every request out at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;
const timeoutMs = posInt.max(MAX_TIMEOUT_MS);
const retries = nonNegInt.max(MAX_RETRIES);
const concurrency = posInt.max(MAX_CONCURRENCY);

/** The built-in chunkers (SPEC §4), in the default grid's order. */
export const CHUNKER_IDS = ['fixed', 'recursive', 'sentence', 'heading', 'semantic'] as const;
/** The retrievers (SPEC §5.1), in the default grid's order. */
export const RETRIEVER_IDS = ['bm25', 'dense', 'hybrid'] as const;

/** One line per chunker, in CHUNKER_IDS order (VS Code `enumDescriptions`). */
const CHUNKER_DESCRIPTIONS = [
  'Fixed-size windows of characters with overlap.',
  'Splits on paragraphs, then lines, then sentences, then words, down to the size.',
  'Whole sentences packed up to the size.',
  'One chunk per Markdown/reST/AsciiDoc section, split when larger than the maximum.',
  'Breaks where the embedding distance between sentence windows jumps (percentile).',
] satisfies { length: (typeof CHUNKER_IDS)['length'] } & string[];
/** One line per retriever, in RETRIEVER_IDS order. */
const RETRIEVER_DESCRIPTIONS = [
  'Lexical BM25 (MiniSearch).',
  'Exact cosine search over the embedding model\'s vectors.',
  'BM25 and dense fused with reciprocal rank fusion (RRF).',
] satisfies { length: (typeof RETRIEVER_IDS)['length'] } & string[];

const chunkerId = z.enum(CHUNKER_IDS);
const retrieverId = z.enum(RETRIEVER_IDS);
const unique = { uniqueItems: true };

/** A glob of include/exclude: refused when over the limits of ../corpus/glob.ts (they bound a match's work). */
const glob = z.string().superRefine((pattern, ctx) => {
  const problem = globProblem(pattern);
  if (!problem) return;
  const fix = /^(\.\/)?!/.test(pattern)
    ? 'remove the leading "!" and put the glob in exclude (spanproof.exclude), the globs of the files to leave out'
    : 'simplify the glob: at most 1000 characters, braces {…} expanding to at most 1024 globs (4096 path segments in all); several shorter globs in the list are fine';
  ctx.addIssue({ code: 'custom', message: `the glob ${problem}`, params: { fix } });
});

/** A name usable in the config id `external/<name>/none` (never a built-in retriever id, whose cost rule it would take). */
export const EXTERNAL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const externalName = z.string().regex(EXTERNAL_NAME, 'expected a name of letters, digits, ".", "_" or "-" (at most 64)').refine((n) => !(RETRIEVER_IDS as readonly string[]).includes(n), 'a built-in retriever id cannot name an external retriever');
/** One external retriever (SPEC/issue #18): a command or a URL. */
const externalRetriever = z.union([
  z.strictObject({ name: externalName, command: z.string().min(1) }),
  z.strictObject({ name: externalName, url: z.string().url().refine(isHttpUrl, 'expected an http:// or https:// URL') }),
]);

/** The run settings schema. Input: any subset (nested objects too); output: every key filled in. */
export const RUN_SETTINGS_SCHEMA = z.strictObject({
  include: setting(z.array(glob), ['**/*.{md,mdx,markdown,txt,rst,adoc}'], { category: 'corpus', scope: 'resource', invalidates: 'corpus', description: 'Globs (relative to the workspace folder) of the corpus files: * and ? within a name, [abc], ** for any folders, {a,b} (VS Code\'s syntax; dot files match). A glob has at most 1000 characters, braces expanding to at most 1024 globs, and no leading ! (use exclude).' }),
  exclude: setting(z.array(glob), ['**/{node_modules,.git,out,dist,build,.spanproof}/**'], { category: 'corpus', scope: 'resource', invalidates: 'corpus', description: 'Globs excluded from the corpus (the syntax and limits of include).' }),
  maxFileBytes: setting(posInt, 4 * 1024 * 1024, { category: 'corpus', scope: 'resource', invalidates: 'corpus', description: 'Files larger than this many bytes are skipped and reported.' }),
  groundTruthPath: setting(z.string(), '.spanproof/groundtruth.json', { category: 'corpus', scope: 'resource', invalidates: 'groundtruth', description: 'Ground-truth file, relative to the workspace folder. It must stay inside the folder (`..`, an absolute path or a link out is refused); the CLI reads a file elsewhere with --groundtruth FILE.' }),
  minQuoteLength: setting(nonNegInt, 12, { category: 'corpus', scope: 'resource', invalidates: 'groundtruth', description: 'Evidence quotes shorter than this (UTF-16 code units) are rejected.' }),
  maxQuoteLength: setting(posInt, 20000, { category: 'corpus', scope: 'resource', invalidates: 'groundtruth', description: 'Evidence quotes longer than this (UTF-16 code units) are rejected.' }),
  chunkers: setting(z.array(chunkerId).min(1), [...CHUNKER_IDS], { category: 'chunking', scope: 'resource', enumDescriptions: CHUNKER_DESCRIPTIONS, invalidates: 'index', description: 'Chunkers in the grid.', jsonSchema: unique }),
  chunkerParams: group({
    fixed: group({
      size: setting(chunkSize, 800, { description: 'Fixed chunker: chunk size in characters.' }),
      overlap: setting(nonNegInt, 100, { description: 'Fixed chunker: overlap in characters.' }),
    }),
    recursive: group({
      size: setting(chunkSize, 800, { description: 'Recursive chunker: target chunk size in characters.' }),
      overlap: setting(nonNegInt, 100, { description: 'Recursive chunker: overlap in characters.' }),
    }),
    sentence: group({
      size: setting(chunkSize, 800, { description: 'Sentence chunker: maximum chunk size in characters.' }),
    }),
    heading: group({
      maxSize: setting(chunkSize, 4000, { description: 'Heading chunker: maximum section size before splitting.' }),
    }),
    semantic: group({
      minSize: setting(nonNegInt, 200, { description: 'Semantic chunker: minimum chunk size.' }),
      maxSize: setting(chunkSize, 2000, { description: 'Semantic chunker: maximum chunk size.' }),
      percentile: setting(z.number().min(0).max(100), 95, { description: 'Semantic chunker: distance percentile that starts a new chunk.' }),
      windowSentences: setting(nonNegInt.max(MAX_WINDOW_SENTENCES), 1, { description: `Semantic chunker: sentences on each side of a sentence in its embedding window (0 to ${MAX_WINDOW_SENTENCES}).` }),
    }),
  }, { invalidates: 'index', category: 'chunking', scope: 'resource' }),
  retrievers: setting(z.array(retrieverId).min(1), [...RETRIEVER_IDS], { category: 'retrieval', scope: 'resource', enumDescriptions: RETRIEVER_DESCRIPTIONS, invalidates: 'retrieval', description: 'Retrievers in the grid.', jsonSchema: unique }),
  rerank: setting(z.array(z.boolean()).min(1), [false, true], { category: 'retrieval', scope: 'resource', invalidates: 'retrieval', description: 'Reranker settings the grid runs ([false, true] = off and on).', jsonSchema: unique }),
  embeddingModel: setting(z.string(), '', { category: 'retrieval', scope: 'machine-overridable', markdownDescription: 'Embedding model: a built-in name (`static-glove`, `use-lite`), a catalogue name (`spanproof models list`), `endpoint:<model>` (served at #spanproof.modelEndpoint.url#) or a model folder (`model.onnx` + `tokenizer.json`). Empty = the default built-in (`static-glove`). Needs a trusted workspace; **Spanproof: Select Embedding Model…** picks one.', invalidates: 'index', restricted: true, description: 'Embedding model: a built-in name (static-glove, use-lite), a catalogue name (spanproof models list), endpoint:<model> (served at spanproof.modelEndpoint.url) or a model folder (model.onnx + tokenizer.json). Empty = the default built-in (static-glove). Needs a trusted workspace.' }),
  embedders: setting(z.array(z.string()), [], {
    category: 'retrieval', scope: 'machine-overridable', invalidates: 'index', restricted: true, jsonSchema: unique,
    description: 'Several embedders in one grid, e.g. ["use-lite", "static-glove"] (built-in names, catalogue names, endpoint:<model>, model folders): with more than one, the dense and hybrid retrievers run once per embedder as dense:<name> / hybrid:<name>, compared paired per question; semantic chunking and context tokens use the first. Empty (default) = the one embeddingModel. When set, embeddingModel is ignored. Spanproof: Select Embedding Model… uses a model alone or adds it here. Needs a trusted workspace.',
  }),
  rerankerModel: setting(z.string(), '', { category: 'retrieval', scope: 'machine-overridable', invalidates: 'retrieval', restricted: true, description: 'Reranker: empty or baseline = the built-in MaxSim baseline (not a trained cross-encoder); a catalogue cross-encoder (spanproof models list); endpoint:<model> (served at spanproof.modelEndpoint.url); or a cross-encoder model folder. Needs a trusted workspace.' }),
  modelEndpoint: group({
    url: setting(z.string(), '', { restricted: true, description: 'Base URL serving endpoint:<model> embedders (OpenAI-compatible POST {url}/embeddings) and rerankers (POST {url}/rerank), e.g. http://localhost:11434/v1. Empty = none: nothing is sent. Needs a trusted workspace; the API key lives in SecretStorage (CLI: SPANPROOF_API_KEY).' }),
    concurrency: setting(concurrency, 4, { description: `Endpoint model requests in flight at most (1 to ${MAX_CONCURRENCY}).` }),
    timeoutMs: setting(timeoutMs, 60000, { description: 'Per-request timeout of endpoint models, ms.' }),
    retries: setting(retries, 3, { description: `Retries of 408/409/429/5xx replies, timeouts and connection errors (Retry-After honoured; 0 to ${MAX_RETRIES}).` }),
    batchSize: setting(posInt, 32, { description: 'Texts per embeddings request.' }),
  }, { invalidates: 'index', category: 'retrieval', scope: 'machine-overridable' }),
  externalRetrievers: setting(z.array(externalRetriever), [], {
    category: 'retrieval', scope: 'resource', invalidates: 'retrieval', restricted: true,
    description: 'Retrievers outside Spanproof scored beside the grid, config id external/<name>/none: {"name", "command"} (a command reading {"id","question","k"} JSON lines on stdin and writing {"id","results"} lines on stdout) or {"name", "url"} (POST {"id","question","k"} → {"results"}). Needs a trusted workspace (it runs a command or calls a server). docs/external.md.',
  }),
  mlflow: group({
    trackingUri: setting(z.string(), '', { restricted: true, description: 'MLflow tracking server (e.g. http://127.0.0.1:5000): when set, `spanproof run` exports each finished run there (docs/mlflow.md). Empty = no export. Needs a trusted workspace.' }),
    experiment: setting(z.string().min(1), 'spanproof', { description: 'MLflow experiment that exported runs go to.' }),
  }, { invalidates: 'ranking', category: 'export', scope: 'resource' }),
  external: group({
    timeoutMs: setting(timeoutMs, 30000, { description: 'External retrievers: ms allowed per question (a command: between two answers; a URL: per request).' }),
    totalTimeoutMs: setting(timeoutMs, 600000, { description: 'External retrievers: ms allowed for all questions of one retriever.' }),
    concurrency: setting(concurrency, 4, { description: `External retriever URLs: requests in flight at most (1 to ${MAX_CONCURRENCY}).` }),
    retries: setting(retries, 2, { description: `External retriever URLs: retries of a request (408, 429, 5xx, timeouts; Retry-After honoured; 0 to ${MAX_RETRIES}).` }),
  }, { invalidates: 'retrieval', category: 'retrieval', scope: 'resource' }),
  k: setting(posInt, 5, { category: 'verdict', scope: 'resource', invalidates: 'metrics', description: 'Result-list size k.' }),
  poolSize: setting(posInt, 20, { category: 'retrieval', scope: 'resource', invalidates: 'retrieval', description: 'Candidate-pool size N.' }),
  tau: setting(z.number().gt(0).max(1), 0.9, { category: 'verdict', scope: 'resource', markdownDescription: 'Coverage threshold τ: a question is a hit when the top #spanproof.k# chunks cover at least this fraction of its evidence (0 < τ ≤ 1).', invalidates: 'metrics', description: 'Coverage threshold τ for a hit.' }),
  weights: group({
    quality: setting(z.number().nonnegative(), 1, { description: 'Weight of the primary metric in the optional timing-dependent verdict (used only when weights.latency > 0).' }),
    latency: setting(z.number().nonnegative(), 0, { description: '0 (default): measured latency is reported but never enters the verdict, so identical runs give identical verdicts. > 0: ranking.json adds a separate timing-dependent verdict (timedVerdict); --fail-under still reads the deterministic one.' }),
    context: setting(z.number().nonnegative(), 0.1, { description: 'Weight of the normalised deterministic cost in the optional timing-dependent verdict (used only when weights.latency > 0).' }),
  }, { invalidates: 'ranking', category: 'verdict', scope: 'resource' }),
  // Any hit@K / coverage@K / ndcg@K / mrr, or hit@k for the run's k: checked against k and poolSize in validateRunSettings.
  primaryMetric: setting(z.string().regex(/^(hit|coverage|ndcg)@(\d+|k)$|^mrr$/, 'expected hit@K, coverage@K, ndcg@K (K a whole number or k) or mrr'), 'hit@k', {
    category: 'verdict', scope: 'resource', markdownDescription: 'Primary metric Q of the verdict: `hit@k` (default: hit at the run\'s #spanproof.k#), any `hit@K`, `coverage@K`, `ndcg@K` with K ≤ #spanproof.poolSize#, or `mrr`.',
    invalidates: 'ranking',
    description: 'Primary metric Q of the verdict: hit@k (default: hit at the run\'s k), any hit@K, coverage@K, ndcg@K with K ≤ poolSize, or mrr.',
    jsonSchema: { pattern: '^((hit|coverage|ndcg)@([1-9][0-9]*|k)|mrr)$', patternErrorMessage: 'hit@k, hit@K, coverage@K, ndcg@K (K a whole number ≤ poolSize, or k for the run\'s k) or mrr', examples: ['hit@k', 'ndcg@k', 'coverage@k', 'mrr', 'hit@10'] },
  }),
  verdict: group({
    margin: setting(z.number().gt(0).lt(1), 0.05, { description: 'Non-inferiority margin δ of the verdict, in units of the primary metric: the cheapest config whose paired 95% CI of (config − best) has a lower bound ≥ −δ is recommended.' }),
  }, { invalidates: 'ranking', category: 'verdict', scope: 'resource' }),
  bootstrap: group({
    resamples: setting(z.number().int().min(MIN_RESAMPLES).max(MAX_RESAMPLES), 2000, { description: `Bootstrap resamples B for confidence intervals (${MIN_RESAMPLES} to ${MAX_RESAMPLES}).` }),
    seed: setting(z.number().int(), 42, { description: 'Bootstrap seed.' }),
  }, { invalidates: 'metrics', category: 'verdict', scope: 'resource' }),
  threads: setting(posInt.max(MAX_THREADS), 2, { category: 'retrieval', scope: 'machine-overridable', invalidates: 'retrieval', description: `Threads per ONNX session (1 to ${MAX_THREADS}).` }),
  judge: group({
    endpoint: setting(z.string(), '', { restricted: true, description: 'OpenAI-compatible endpoint for generation/judging (opt-in). Needs a trusted workspace; the API key lives in SecretStorage.' }),
    generatorModel: setting(z.string(), '', { restricted: true, description: 'Generator model name at the endpoint.' }),
    judgeModel: setting(z.string(), '', { restricted: true, description: 'Judge model name at the endpoint.' }),
    concurrency: setting(concurrency, 4, { description: `Concurrent judge requests (1 to ${MAX_CONCURRENCY}).` }),
    requestsPerMinute: setting(nonNegInt, 0, { description: 'Rate limit (0 = none).' }),
    timeoutMs: setting(timeoutMs, 60000, { description: 'Request timeout in ms.' }),
    retries: setting(retries, 3, { description: `Retries per request (0 to ${MAX_RETRIES}).` }),
    allowSameModel: setting(z.boolean(), false, { description: 'Allow the judge to be the generator model.' }),
  }, { invalidates: 'metrics', category: 'judges', scope: 'resource' }),
  /** Question drafting (`spanproof draft`, VS Code Draft Questions…; issue #14): the endpoint is `judge.endpoint`. Read when drafting starts, so a change invalidates nothing. */
  draft: group({
    model: setting(z.string(), '', { restricted: true, description: 'Model at spanproof.judge.endpoint that drafts questions (Draft Questions…); empty = spanproof.judge.generatorModel. Drafted quotes are kept only when they occur verbatim in the document.' }),
    count: setting(posInt.max(MAX_DRAFT_COUNT), 20, { description: `Questions to draft on the workspace (Draft Questions…, spanproof draft --count; 1 to ${MAX_DRAFT_COUNT}).` }),
  }, { invalidates: null, category: 'judges', scope: 'resource' }),
  /** The injection exposure study (issue #17, docs/safety.md): run after a written run; its results are in injection.json, so a change invalidates nothing. */
  injection: group({
    study: setting(z.boolean(), false, { description: 'Also run the injection exposure study (offline, no model): canary instructions of the three XPIA kinds planted in a scratch copy of the corpus, exposure@k per config written to injection.json. The documents are never modified.' }),
    canariesPerKind: setting(z.number().int().min(1).max(50), 4, { description: 'Canaries planted per XPIA kind (manipulated content, intrusion, information gathering) in the injection study.' }),
  }, { invalidates: null, category: 'verdict', scope: 'resource' }),
});
