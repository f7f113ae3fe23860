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
  tokenizer: ModelTokenizer;
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
 * the tokenizer is missing or a config file is not valid JSON.
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

  let tokenizerJson: JsonObject;
  const hashed: string[] = [modelPath];
  if (existsSync(tokenizerJsonPath)) {
    tokenizerJson = readJson(tokenizerJsonPath, dir) as JsonObject;
    hashed.push(tokenizerJsonPath);
  } else {
    const lower = tokenizerConfig.do_lower_case === undefined ? true : tokenizerConfig.do_lower_case === true;
    tokenizerJson = wordPieceTokenizerJson(readFileSync(vocabPath, 'utf8'), lower, path.join(dir, 'vocab.txt'));
    hashed.push(vocabPath);
  }
  for (const f of ['tokenizer_config.json', 'config.json', 'sentence_bert_config.json', path.join('1_Pooling', 'config.json')]) {
    const p = path.join(abs, f);
    if (existsSync(p)) hashed.push(p);
  }
  const tokenizer = new ModelTokenizer(tokenizerJson, tokenizerConfig, maxLength, path.join(dir, existsSync(tokenizerJsonPath) ? 'tokenizer.json' : 'vocab.txt'));
  return { dir: abs, modelPath, tokenizer, pooling: poolingOf(poolingConfig), maxLength, contentHash: hashFiles(abs, hashed) };
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
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as JsonObject;
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

function hashFiles(abs: string, files: string[]): string {
  const h = createHash('sha256');
  for (const f of files) {
    h.update(path.relative(abs, f).split(path.sep).join('/'));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}
