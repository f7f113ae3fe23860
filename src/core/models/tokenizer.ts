/**
 * Tokenisation for ONNX model folders with `@huggingface/tokenizers` (pure JS). That library applies
 * normaliser, pre-tokeniser and model, but does no padding and no truncation, so this module does
 * both itself: it encodes each text WITHOUT special tokens, truncates the token ids, and then adds the
 * special tokens described by the tokenizer.json `post_processor` (TemplateProcessing, BertProcessing,
 * RobertaProcessing, or none).
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { SpanproofError } from '../errors';
import { ASCII_WHITESPACE } from '../text/whitespace';
import { UseSentencePieceTokenizer } from './useTokenizer';

/**
 * `tokenizer_config.json` key that selects Spanproof's own USE-lite SentencePiece tokenizer
 * (useTokenizer.ts) over the Unigram vocabulary of `tokenizer.json`, instead of Hugging Face's
 * Unigram algorithm (which differs on unknown characters). Other tools ignore the key.
 */
export const SPANPROOF_TOKENIZER_KEY = 'spanproof_tokenizer';
export const USE_SENTENCEPIECE = 'use-sentencepiece';

/** What ModelTokenizer needs from a tokenizer implementation. */
interface IdEncoder {
  /** Ids without special tokens; an entry is undefined for a token missing from the vocabulary. */
  encode(text: string): (number | undefined)[];
  tokenToId(token: string): number | undefined;
}

/**
 * Characters of text whose token ids {@link ModelTokenizer.idsOf} keeps (≈ 2–3 bytes per character with
 * the ids; measured on the FastAPI docs' 30-config cold run: 36.7k calls over 16.1 M characters, of which
 * 6.5k calls / 4.2 M characters repeated an earlier text).
 */
const MEMO_CHARS = 4_000_000;
/** Distinct whitespace-free pieces whose ids a piece-wise tokenizer keeps. */
const PIECE_LIMIT = 200_000;

/** One encoded input row before padding. */
export interface EncodedRow {
  ids: number[];
  /** Segment ids (`token_type_ids`): 0 for the first text, 1 for the second where the template says so. */
  typeIds: number[];
  /** Number of tokens of the texts themselves (no special tokens), before truncation. */
  contentTokens: number;
}

type TemplatePiece = { kind: 'special'; ids: number[]; typeId: number } | { kind: 'seq'; which: 'A' | 'B'; typeId: number };

interface Template {
  single: TemplatePiece[];
  pair: TemplatePiece[];
}

/** JSON objects as parsed from tokenizer.json / tokenizer_config.json. */
export type JsonObject = Record<string, unknown>;

/** A model tokenizer: ids without special tokens, truncation to `maxLength`, then the template. */
export class ModelTokenizer {
  private readonly tok: IdEncoder;
  private readonly template: Template;
  readonly padId: number;
  readonly unkId: number | undefined;
  /** text → ids of {@link idsOf}; cleared when the texts held reach MEMO_CHARS (only a speed-up). */
  private readonly memo = new Map<string, readonly number[]>();
  private memoChars = 0;
  /** Whether ids are computed per whitespace-free piece ({@link splitsAtWhitespace}). */
  readonly pieceWise: boolean;
  /** piece → ids, for a piece-wise tokenizer; cleared at PIECE_LIMIT entries (only a speed-up). */
  private readonly pieces = new Map<string, number[]>();

  /**
   * @param tokenizerJson parsed tokenizer.json
   * @param tokenizerConfig parsed tokenizer_config.json ({} when absent)
   * @param maxLength maximum row length in tokens, special tokens included
   * @param file file name used in error messages
   */
  constructor(
    tokenizerJson: JsonObject,
    tokenizerConfig: JsonObject,
    readonly maxLength: number,
    file: string,
  ) {
    const model = tokenizerJson.model as JsonObject | undefined;
    if (!model || typeof model !== 'object' || typeof model.vocab !== 'object') {
      throw new SpanproofError('model', 'tokenizer.json has no "model" with a "vocab".', {
        file,
        field: 'model.vocab',
        fix: 'Use the tokenizer.json exported with the model (Hugging Face tokenizers format).',
      });
    }
    const config: JsonObject = { ...tokenizerConfig };
    // The JS library reads a WordLevel model's unknown token from the tokenizer config, not from the
    // model block as the Rust library does; pass it along so unknown words map to [UNK].
    if (model.type === 'WordLevel' && config.unk_token === undefined && typeof model.unk_token === 'string') {
      config.unk_token = model.unk_token;
    }
    try {
      this.tok = makeEncoder(tokenizerJson, config, file);
    } catch (e) {
      if (e instanceof SpanproofError) throw e;
      throw new SpanproofError('model', `tokenizer.json could not be loaded: ${(e as Error).message}`, {
        file,
        fix: 'Use a tokenizer.json written by Hugging Face tokenizers (WordPiece, BPE, Unigram or WordLevel).',
        cause: e,
      });
    }
    this.pieceWise = splitsAtWhitespace(tokenizerJson);
    this.template = readTemplate(tokenizerJson.post_processor as JsonObject | null | undefined, file);
    const unkToken = typeof model.unk_token === 'string' ? model.unk_token : undefined;
    this.unkId = unkToken === undefined ? undefined : this.tok.tokenToId(unkToken);
    this.padId = readPadId(tokenizerJson, tokenizerConfig, this.tok);
    const minimum = Math.max(specialCount(this.template.single), specialCount(this.template.pair)) + 2;
    if (!(maxLength >= minimum)) {
      throw new SpanproofError('model', `Maximum sequence length ${maxLength} leaves no room for text.`, {
        file,
        fix: 'Check model_max_length in tokenizer_config.json / max_position_embeddings in config.json.',
      });
    }
  }

  /**
   * Token ids of `text` without special tokens and without truncation. The array may be shared with a
   * memo (the same chunk texts are tokenised by several chunkers, pools and the context-cost count),
   * so callers must not mutate it.
   *
   * When the tokenizer is {@link splitsAtWhitespace piece-wise} (the static GloVe model's), the text is cut at ASCII whitespace and each distinct piece is encoded once by the
   * library (memoised): the ids are the library's ids for the whole text (a property test checks it),
   * at a fraction of the cost (FastAPI docs: ≈ 30k distinct pieces for 16 M characters tokenised).
   * Other tokenizers (byte-level BPE, SentencePiece) memoise whole texts.
   */
  idsOf(text: string): readonly number[] {
    if (this.pieceWise) return this.idsByPiece(text);
    const hit = this.memo.get(text);
    if (hit) return hit;
    const ids = this.encodeChecked(text);
    if (this.memoChars + text.length > MEMO_CHARS) {
      this.memo.clear();
      this.memoChars = 0;
    }
    if (text.length <= MEMO_CHARS) {
      this.memo.set(text, ids);
      this.memoChars += text.length;
    }
    return ids;
  }

  private idsByPiece(text: string): number[] {
    const out: number[] = [];
    for (const piece of text.split(ASCII_WHITESPACE)) {
      if (!piece) continue;
      let ids = this.pieces.get(piece);
      if (!ids) {
        ids = this.encodeChecked(piece);
        if (this.pieces.size >= PIECE_LIMIT) this.pieces.clear();
        this.pieces.set(piece, ids);
      }
      for (const id of ids) out.push(id);
    }
    return out;
  }

  /** The library's ids of `text`; throws when a token has no id (no unknown token). */
  private encodeChecked(text: string): number[] {
    const raw = this.tok.encode(text);
    for (const id of raw) {
      if (typeof id !== 'number') {
        throw new SpanproofError('model', 'The tokenizer produced a token that is not in its vocabulary and has no unknown token.', {
          field: 'model.unk_token',
          fix: 'Set "unk_token" in tokenizer.json\'s model or in tokenizer_config.json.',
        });
      }
    }
    return raw as number[];
  }

  /** Number of tokens of `text`, no special tokens, no truncation. */
  countTokens(text: string): number {
    return this.idsOf(text).length;
  }

  /** One row for one text: truncated to `maxLength` (special tokens included). */
  encodeSingle(text: string): EncodedRow {
    const a = this.idsOf(text);
    const budget = this.maxLength - specialCount(this.template.single);
    return { ...assemble(this.template.single, a.slice(0, budget), []), contentTokens: a.length };
  }

  /**
   * One row for a text pair (cross-encoder query + passage), truncated "longest first" as Hugging Face
   * does by default: tokens are removed one at a time from the end of the longer text (the second on
   * ties) until the row fits.
   */
  encodePair(first: string, second: string): EncodedRow {
    const a = this.idsOf(first);
    const b = this.idsOf(second);
    const budget = this.maxLength - specialCount(this.template.pair);
    let la = a.length;
    let lb = b.length;
    while (la + lb > budget) {
      if (la > lb) la--;
      else lb--;
    }
    return { ...assemble(this.template.pair, a.slice(0, la), b.slice(0, lb)), contentTokens: a.length + b.length };
  }
}

/**
 * Normalisers that map each character on its own (or compose only non-whitespace), so pieces split at
 * ASCII whitespace normalise alike. Not BertNormalizer: its clean_text deletes \f and \v, joining the
 * words around them.
 */
const LOCAL_NORMALIZERS = new Set(['NFC', 'NFD', 'NFKC', 'NFKD', 'Lowercase', 'StripAccents']);
/** Pre-tokenisers that drop whitespace and never look across it. */
const WHITESPACE_PRE_TOKENIZERS = new Set(['Whitespace', 'WhitespaceSplit']);
/** The static GloVe model's Split pattern (words or single symbols, whitespace removed). */
const WORD_OR_SYMBOL = '[\\p{L}\\p{M}\\p{N}]+|[^\\s\\p{L}\\p{M}\\p{N}]';

function localNormalizer(n: JsonObject | null | undefined): boolean {
  if (!n) return true;
  if (n.type === 'Sequence') return Array.isArray(n.normalizers) && (n.normalizers as JsonObject[]).every(localNormalizer);
  return LOCAL_NORMALIZERS.has(n.type as string);
}

function whitespacePreTokenizer(p: JsonObject | null | undefined): boolean {
  if (!p) return false;
  if (p.type === 'Sequence') return Array.isArray(p.pretokenizers) && (p.pretokenizers as JsonObject[]).length > 0 && (p.pretokenizers as JsonObject[]).every(whitespacePreTokenizer);
  if (p.type === 'Split') return (p.pattern as { Regex?: string } | undefined)?.Regex === WORD_OR_SYMBOL && p.behavior === 'Removed' && p.invert === true;
  return WHITESPACE_PRE_TOKENIZERS.has(p.type as string);
}

/**
 * Whether encoding a text equals concatenating the encodings of its pieces between ASCII whitespace:
 * a per-character normaliser, a pre-tokeniser that drops whitespace, a per-word model (WordLevel,
 * WordPiece), and added tokens that contain no whitespace and do not strip it. True for the static
 * GloVe model; false for BERT (see LOCAL_NORMALIZERS), byte-level BPE and SentencePiece (they keep spaces).
 */
export function splitsAtWhitespace(tj: JsonObject): boolean {
  const model = tj.model as JsonObject | undefined;
  if (!model || (model.type !== 'WordLevel' && model.type !== 'WordPiece')) return false;
  const added = (Array.isArray(tj.added_tokens) ? tj.added_tokens : []) as JsonObject[];
  if (added.some((t) => typeof t.content !== 'string' || /\s/.test(t.content) || t.lstrip === true || t.rstrip === true || t.single_word === true)) return false;
  return localNormalizer(tj.normalizer as JsonObject | null | undefined) && whitespacePreTokenizer(tj.pre_tokenizer as JsonObject | null | undefined);
}

function specialCount(pieces: TemplatePiece[]): number {
  let n = 0;
  for (const p of pieces) if (p.kind === 'special') n += p.ids.length;
  return n;
}

function assemble(pieces: TemplatePiece[], a: readonly number[], b: readonly number[]): { ids: number[]; typeIds: number[] } {
  const ids: number[] = [];
  const typeIds: number[] = [];
  for (const p of pieces) {
    const part = p.kind === 'special' ? p.ids : p.which === 'A' ? a : b;
    for (const id of part) {
      ids.push(id);
      typeIds.push(p.typeId);
    }
  }
  return { ids, typeIds };
}

const PLAIN: Template = {
  single: [{ kind: 'seq', which: 'A', typeId: 0 }],
  pair: [
    { kind: 'seq', which: 'A', typeId: 0 },
    { kind: 'seq', which: 'B', typeId: 1 },
  ],
};

/** Reads the special-token template of a tokenizer.json `post_processor`. */
function readTemplate(pp: JsonObject | null | undefined, file: string): Template {
  if (!pp) return PLAIN;
  const special = (v: unknown): number => {
    const pair = v as [string, number];
    return pair[1];
  };
  switch (pp.type) {
    case 'BertProcessing': {
      const cls = special(pp.cls);
      const sep = special(pp.sep);
      return {
        single: [sp([cls], 0), seq('A', 0), sp([sep], 0)],
        pair: [sp([cls], 0), seq('A', 0), sp([sep], 0), seq('B', 1), sp([sep], 1)],
      };
    }
    case 'RobertaProcessing': {
      const cls = special(pp.cls);
      const sep = special(pp.sep);
      return {
        single: [sp([cls], 0), seq('A', 0), sp([sep], 0)],
        pair: [sp([cls], 0), seq('A', 0), sp([sep, sep], 0), seq('B', 0), sp([sep], 0)],
      };
    }
    case 'TemplateProcessing': {
      const tokens = (pp.special_tokens ?? {}) as Record<string, { ids: number[] }>;
      const read = (list: unknown): TemplatePiece[] =>
        (list as JsonObject[]).map((item) => {
          if (item.SpecialToken) {
            const s = item.SpecialToken as { id: string; type_id: number };
            const ids = tokens[s.id]?.ids;
            if (!ids) throw new SpanproofError('model', `post_processor names special token ${s.id} but does not define it.`, { file, field: 'post_processor.special_tokens' });
            return sp(ids, s.type_id ?? 0);
          }
          const s = item.Sequence as { id: 'A' | 'B'; type_id: number };
          return seq(s.id, s.type_id ?? 0);
        });
      return { single: read(pp.single), pair: read(pp.pair) };
    }
    case 'Sequence': {
      // e.g. ByteLevel + TemplateProcessing: only the template part adds tokens.
      const inner = (pp.processors as JsonObject[] | undefined)?.find((p) => p.type !== 'ByteLevel');
      return readTemplate(inner, file);
    }
    case 'ByteLevel':
      return PLAIN;
    default:
      throw new SpanproofError('model', `Unsupported tokenizer post_processor type ${String(pp.type)}.`, {
        file,
        field: 'post_processor.type',
        fix: 'Supported: TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence, or none.',
      });
  }
}

function sp(ids: number[], typeId: number): TemplatePiece {
  return { kind: 'special', ids, typeId };
}
function seq(which: 'A' | 'B', typeId: number): TemplatePiece {
  return { kind: 'seq', which, typeId };
}

/**
 * Hugging Face tokenizers for every tokenizer.json, except a Unigram model whose tokenizer_config.json
 * names {@link USE_SENTENCEPIECE}: that one runs {@link UseSentencePieceTokenizer} over the same vocabulary.
 */
function makeEncoder(tokenizerJson: JsonObject, config: JsonObject, file: string): IdEncoder {
  const model = tokenizerJson.model as JsonObject;
  const own = config[SPANPROOF_TOKENIZER_KEY];
  if (own === undefined) {
    const hf = new Tokenizer(tokenizerJson, config);
    return { encode: (text) => hf.encode(text, { add_special_tokens: false }).ids, tokenToId: (t) => hf.token_to_id(t) };
  }
  if (own !== USE_SENTENCEPIECE || model.type !== 'Unigram' || !Array.isArray(model.vocab)) {
    throw new SpanproofError('model', `tokenizer_config.json ${SPANPROOF_TOKENIZER_KEY} is ${JSON.stringify(own)} for a ${String(model.type)} model.`, {
      file,
      field: SPANPROOF_TOKENIZER_KEY,
      fix: `The only value is "${USE_SENTENCEPIECE}", with a Unigram tokenizer.json; remove the key to use the Hugging Face tokenizer.`,
    });
  }
  const use = new UseSentencePieceTokenizer(model.vocab as [string, number][]);
  return { encode: (text) => use.encode(text), tokenToId: (t) => use.tokenToId(t) };
}

function readPadId(tj: JsonObject, cfg: JsonObject, tok: IdEncoder): number {
  const padding = tj.padding as { pad_id?: number } | null | undefined;
  if (padding && typeof padding.pad_id === 'number') return padding.pad_id;
  const named = typeof cfg.pad_token === 'string' ? cfg.pad_token : (cfg.pad_token as { content?: string } | undefined)?.content;
  for (const t of [named, '[PAD]', '<pad>']) {
    if (t === undefined) continue;
    const id = tok.tokenToId(t);
    if (id !== undefined) return id;
  }
  return 0;
}

/**
 * A BERT WordPiece tokenizer.json built from a `vocab.txt` (one token per line, id = line number), as
 * `BertTokenizerFast` would: BERT normaliser (lower-casing per `do_lower_case`, default true), BERT
 * pre-tokeniser, `##` continuation prefix, `[CLS] A [SEP] (B [SEP])` template.
 */
export function wordPieceTokenizerJson(vocabText: string, lowercase: boolean, file: string): JsonObject {
  const vocab: Record<string, number> = {};
  const lines = vocabText.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((t, i) => {
    if (!(t in vocab)) vocab[t] = i;
  });
  for (const t of ['[UNK]', '[CLS]', '[SEP]']) {
    if (!(t in vocab)) {
      throw new SpanproofError('model', `vocab.txt has no ${t} token.`, { file, fix: 'Use the vocab.txt of a BERT-style WordPiece model, or provide tokenizer.json.' });
    }
  }
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].filter((t) => t in vocab);
  return {
    version: '1.0',
    added_tokens: specials.map((t) => ({ id: vocab[t], content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', sep: ['[SEP]', vocab['[SEP]']], cls: ['[CLS]', vocab['[CLS]']] },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}
