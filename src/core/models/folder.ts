/**
 * Reads a model folder as exported by Hugging Face Optimum / Xenova / sentence-transformers:
 * `model.onnx` or `onnx/model.onnx`, `tokenizer.json` or `vocab.txt`, and the optional configs
 * `tokenizer_config.json`, `config.json`, `sentence_bert_config.json`, `1_Pooling/config.json`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { SpanproofError } from '../errors';
import { withoutExcerpt } from '../files/jsonText';
import { type JsonObject, ModelTokenizer, wordPieceTokenizerJson } from './tokenizer';

/** How token vectors become one sentence vector when the model has no `sentence_embedding` output. */
export type Pooling = 'mean' | 'cls' | 'max' | 'lasttoken';

export interface ModelFolder {
  dir: string;
  modelPath: string;
  /** Built on first use (see {@link openModelFolder}); throws its SpanproofError('model') then. */
  readonly tokenizer: ModelTokenizer;
  /** Pooling from `1_Pooling/config.json`; 'mean' when absent. */
  pooling: Pooling;
  /** Row length limit (special tokens included), see {@link maxLengthOf}. */
  maxLength: number;
  /** First 16 hex digits of SHA-256 over the model, tokenizer and config files (in a fixed order). */
  contentHash: string;
}

/** Length used when no config names one: BERT-family position limit. */
export const FALLBACK_MAX_LENGTH = 512;

/**
 * Opens a model folder. Throws SpanproofError('not-found') if `dir` is not a folder, and
 * SpanproofError('model') naming the folder, what was found and what is expected when the model or
 * the tokenizer is missing or a config file is not valid JSON, or naming the file when it does not
 * match its recorded SHA-256 (SHA256SUMS, or a pulled model's manifest). The tokenizer file is read
 * and hashed here but parsed when `tokenizer` is first read, which throws its errors (not valid JSON,
 * no vocabulary) then.
 */
export function openModelFolder(dir: string): ModelFolder {
  const abs = path.resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    throw new SpanproofError('not-found', 'Model folder not found.', {
      file: dir,
      fix: 'Set the model setting to a folder containing model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt).',
    });
  }
  const modelPath = ['model.onnx', path.join('onnx', 'model.onnx')].map((p) => path.join(abs, p)).find((p) => existsSync(p));
  const tokenizerJsonPath = path.join(abs, 'tokenizer.json');
  const vocabPath = path.join(abs, 'vocab.txt');
  const hasTokenizer = existsSync(tokenizerJsonPath) || existsSync(vocabPath);
  if (!modelPath || !hasTokenizer) {
    const missing = [!modelPath ? 'model.onnx (or onnx/model.onnx)' : '', !hasTokenizer ? 'tokenizer.json (or vocab.txt)' : ''].filter(Boolean);
    throw new SpanproofError('model', `Model folder is incomplete: missing ${missing.join(' and ')}. Found: ${listing(abs)}.`, {
      file: dir,
      fix: 'Export the model with Hugging Face Optimum (optimum-cli export onnx) or use a Xenova ONNX repository snapshot; the folder needs model.onnx (or onnx/model.onnx) and tokenizer.json (or vocab.txt).',
    });
  }

  const tokenizerConfig = readJson(path.join(abs, 'tokenizer_config.json'), dir) ?? {};
  const config = readJson(path.join(abs, 'config.json'), dir) ?? {};
  const sbert = readJson(path.join(abs, 'sentence_bert_config.json'), dir) ?? {};
  const poolingConfig = readJson(path.join(abs, '1_Pooling', 'config.json'), dir);
  const maxLength = maxLengthOf(tokenizerConfig, config, sbert);

  const hasJson = existsSync(tokenizerJsonPath);
  const hashed: string[] = [modelPath, hasJson ? tokenizerJsonPath : vocabPath];
  for (const f of ['tokenizer_config.json', 'config.json', 'sentence_bert_config.json', path.join('1_Pooling', 'config.json')]) {
    const p = path.join(abs, f);
    if (existsSync(p)) hashed.push(p);
  }
  const { contentHash, digests, bytes } = hashFiles(abs, hashed);
  verifyChecksums(abs, dir, digests); // before the tokenizer is built and before any session loads model.onnx
  // The tokenizer is built on first use, from the bytes just hashed (so from the checked file): a
  // warm run whose question vectors, lists, token counts and pair scores all come from the caches
  // never needs it (tokenizer.json parse + vocabulary maps ≈ 85 ms of the default model's load).
  // The caches are keyed by `contentHash`, which covers the tokenizer file, so a changed or broken
  // tokenizer can never hide behind them: it misses every cache and is built (and fails) at once.
  let tokenizer: ModelTokenizer | undefined;
  let pending: Buffer | undefined = bytes.get(hashed[1]); // released once the tokenizer is built
  const buildTokenizer = (): ModelTokenizer => {
    const text = pending!.toString('utf8');
    let tokenizerJson: JsonObject;
    if (hasJson) tokenizerJson = parseJson(text, tokenizerJsonPath, dir);
    else {
      const lower = tokenizerConfig.do_lower_case === undefined ? true : tokenizerConfig.do_lower_case === true;
      tokenizerJson = wordPieceTokenizerJson(text, lower, path.join(dir, 'vocab.txt'));
    }
    const built = new ModelTokenizer(tokenizerJson, tokenizerConfig, maxLength, path.join(dir, hasJson ? 'tokenizer.json' : 'vocab.txt'));
    pending = undefined;
    return built;
  };
  return {
    dir: abs, modelPath, pooling: poolingOf(poolingConfig), maxLength, contentHash,
    get tokenizer() {
      return (tokenizer ??= buildTokenizer());
    },
  };
}

/** The pulled-model manifest of src/core/models/catalogue/store.ts (its `files` carry the pinned SHA-256). */
const MANIFEST = 'spanproof-model.json';

/**
 * The recorded SHA-256 of the folder's files, by POSIX path relative to the folder: `SHA256SUMS`
 * (`sha256sum` output: `<hex>  <name>` or `<hex> *<name>`; the bundled models ship one) and the
 * manifest of a pulled catalogue model. Empty when the folder has neither. Unreadable lines are skipped.
 */
function recordedSums(abs: string): { sums: Map<string, { sha256: string; from: string }>; pulled: string | null } {
  const sums = new Map<string, { sha256: string; from: string }>();
  let pulled: string | null = null;
  try {
    const m = JSON.parse(readFileSync(path.join(abs, MANIFEST), 'utf8')) as { name?: unknown; files?: unknown };
    if (typeof m.name === 'string') pulled = m.name;
    if (Array.isArray(m.files)) {
      for (const f of m.files as Array<{ path?: unknown; sha256?: unknown }>) if (typeof f.path === 'string' && typeof f.sha256 === 'string') sums.set(f.path, { sha256: f.sha256.toLowerCase(), from: MANIFEST });
    }
  } catch { /* no manifest (or not JSON): not a pulled model */ }
  let text = '';
  try { text = readFileSync(path.join(abs, 'SHA256SUMS'), 'utf8'); } catch { /* none */ }
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trim());
    if (m) sums.set(m[2].replace(/^\.\//, ''), { sha256: m[1].toLowerCase(), from: 'SHA256SUMS' });
  }
  return { sums, pulled };
}

/**
 * Refuses a model folder whose model, tokenizer or config file no longer has the SHA-256 its
 * SHA256SUMS (or pulled-model manifest) records — a file edited or damaged after it was written would
 * otherwise be used silently when it still parses (a fresh user's finding). Only the files the loader
 * reads are checked (a changed README does not matter); a folder without recorded sums is not checked.
 * @throws SpanproofError('model') naming the file, both hashes and how to restore it.
 */
function verifyChecksums(abs: string, dir: string, digests: ReadonlyMap<string, string>): void {
  const { sums, pulled } = recordedSums(abs);
  for (const [rel, got] of digests) {
    const want = sums.get(rel);
    if (!want || want.sha256 === got) continue;
    const restore = pulled
      ? `re-download it: spanproof models remove ${pulled}, then spanproof models pull ${pulled}`
      : 're-download or re-export the model folder (a model bundled with Spanproof: reinstall Spanproof, or git checkout media/models in a clone)';
    throw new SpanproofError('model', `this file does not match the SHA-256 that ${want.from} records for it (${want.from} says ${want.sha256.slice(0, 12)}…, the file has ${got.slice(0, 12)}…): it was changed or damaged after the model was written, so it is not used.`, {
      file: path.join(dir, rel),
      fix: `${restore}. If you changed it on purpose, update its line in ${want.from === 'SHA256SUMS' ? 'SHA256SUMS (sha256sum ' + rel + ')' : `${MANIFEST}, or copy the folder without it`}.`,
    });
  }
}

/**
 * The row length limit: the smallest of `sentence_bert_config.json` max_seq_length,
 * `tokenizer_config.json` model_max_length (ignored when ≥ 1e9, Hugging Face's "no limit" value) and
 * `config.json` max_position_embeddings; {@link FALLBACK_MAX_LENGTH} (512) when none is given.
 */
export function maxLengthOf(tokenizerConfig: JsonObject, config: JsonObject, sbert: JsonObject): number {
  const limits = [sbert.max_seq_length, tokenizerConfig.model_max_length, config.max_position_embeddings].filter(
    (v): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1e9,
  );
  return limits.length > 0 ? Math.min(...limits) : FALLBACK_MAX_LENGTH;
}

function poolingOf(cfg: JsonObject | undefined): Pooling {
  if (!cfg) return 'mean';
  if (cfg.pooling_mode_cls_token === true) return 'cls';
  if (cfg.pooling_mode_lasttoken === true) return 'lasttoken';
  if (cfg.pooling_mode_max_tokens === true) return 'max';
  return 'mean';
}

function readJson(p: string, dir: string): JsonObject | undefined {
  if (!existsSync(p)) return undefined;
  return parseJson(readFileSync(p, 'utf8'), p, dir);
}

/** `text` (the file `p` of the model folder `dir`) as JSON; SpanproofError('model') naming the file when it is not. */
function parseJson(text: string, p: string, dir: string): JsonObject {
  try {
    return JSON.parse(text) as JsonObject;
  } catch (e) {
    throw new SpanproofError('model', `Not valid JSON: ${withoutExcerpt((e as Error).message)}`, {
      file: path.join(dir, path.relative(path.resolve(dir), p)),
      fix: 'Restore the file from the model export.',
      cause: e,
    });
  }
}

function listing(abs: string): string {
  const names = readdirSync(abs).sort();
  if (names.length === 0) return 'nothing (the folder is empty)';
  const shown = names.slice(0, 20).map((n) => (statSync(path.join(abs, n)).isDirectory() ? `${n}/` : n));
  return shown.join(', ') + (names.length > 20 ? `, … (${names.length} entries)` : '');
}

/**
 * `contentHash` (first 16 hex digits of SHA-256 over the files' relative paths and bytes, in the given
 * order) and each file's own SHA-256 (by relative POSIX path), from one read of each file; `bytes`
 * keeps the bytes of `files[1]` (the tokenizer file).
 */
function hashFiles(abs: string, files: string[]): { contentHash: string; digests: Map<string, string>; bytes: Map<string, Buffer> } {
  const h = createHash('sha256');
  const digests = new Map<string, string>();
  const read = new Map<string, Buffer>();
  for (const f of files) {
    const rel = path.relative(abs, f).split(path.sep).join('/');
    const bytes = readFileSync(f);
    if (f === files[1]) read.set(f, bytes); // the tokenizer file, kept for the tokenizer
    h.update(rel);
    h.update('\0');
    h.update(bytes);
    h.update('\0');
    digests.set(rel, createHash('sha256').update(bytes).digest('hex'));
  }
  return { contentHash: h.digest('hex').slice(0, 16), digests, bytes: read };
}
