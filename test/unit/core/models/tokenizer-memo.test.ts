// ModelTokenizer.idsOf memoises ids per text (only a speed-up): repeated and interleaved calls must give
// exactly what @huggingface/tokenizers itself encodes (the reference), for the shipped default tokenizer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { staticGloveDir } from '../../../../src/core/models/defaultModel';
import { ModelTokenizer, splitsAtWhitespace } from '../../../../src/core/models/tokenizer';

test('idsOf: first, repeated and interleaved calls equal the library encode; encodeSingle is unaffected', () => {
  const dir = staticGloveDir();
  const json = JSON.parse(readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
  const cfg = JSON.parse(readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  const tok = new ModelTokenizer(json, cfg, 8, 'tokenizer.json');
  const lib = new Tokenizer(json, cfg);
  const texts = ['Path parameters', 'path  PARAMETERS', 'ﬁle Ⅻ café', '', '!!', 'Path parameters', 'a b c d e f g h i j k'];
  const want = texts.map((t) => lib.encode(t, { add_special_tokens: false }).ids);
  for (let round = 0; round < 3; round++) {
    texts.forEach((t, i) => assert.deepEqual([...tok.idsOf(t)], want[i], `round ${round}: ${JSON.stringify(t)}`));
  }
  // the memo's array is not truncated by encodeSingle (maxLength 8: 11 ids, cut to 8)
  const long = texts[6];
  assert.deepEqual(tok.encodeSingle(long).ids, want[6].slice(0, 8));
  assert.equal(tok.encodeSingle(long).contentTokens, 11);
  assert.deepEqual([...tok.idsOf(long)], want[6]);
  assert.equal(tok.countTokens(long), 11);
});

// The shipped static tokenizer is piece-wise (src/core/models/tokenizer.ts splitsAtWhitespace): its ids
// come from encoding each ASCII-whitespace-free piece once. They must equal the library's encode of the
// whole text (the reference), on random text with the hazards of each stage: NFKC folds (ﬁ, Ⅻ, NBSP,
// ideographic space), combining marks after a space, Greek capital sigma (lower-cased in context), the
// added tokens written in the text, CJK, emoji with ZWJ, and every ASCII whitespace character.
test('piece-wise idsOf equals the library encode of the whole text (property, shipped static tokenizer)', () => {
  const dir = staticGloveDir();
  const json = JSON.parse(readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
  const cfg = JSON.parse(readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(splitsAtWhitespace(json), true);
  const tok = new ModelTokenizer(json, cfg, 8192, 'tokenizer.json');
  assert.equal(tok.pieceWise, true);
  const lib = new Tokenizer(json, cfg);
  const alphabet = ['a', 'Z', 'x', '1', '_', '.', "'", '’', ',', '-', '@', ' ', ' ', '\n', '\t', '\r', '\f', '\v', '\u00a0', '\u3000', '\u2003',
    '\u0301', '\u0308', 'é', 'Σ', 'Ο', 'İ', 'ß', 'ﬁ', 'Ⅻ', '①', '我', '喜', 'ア', '😀', '\u200d', '\u200b', '\ufe0f', '[PAD]', '[UNK]', '[', ']'];
  fc.assert(fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }), (chars) => {
    const text = chars.join('');
    assert.deepEqual([...tok.idsOf(text)], lib.encode(text, { add_special_tokens: false }).ids, JSON.stringify(text));
  }), { numRuns: 3000, seed: 20261201 });
  const words = ['FastAPI', 'path-params', 'e.g.', '3.14', "don't", '__init__', 'ΟΔΟΣ', 'the', 'The', 'café', 'x\u0301y', '我喜欢吃苹果'];
  fc.assert(fc.property(fc.array(fc.constantFrom(...words, ' ', '\n', '\r\n', '  ', '\t'), { maxLength: 40 }), (parts) => {
    const text = parts.join('');
    assert.deepEqual([...tok.idsOf(text)], lib.encode(text, { add_special_tokens: false }).ids, JSON.stringify(text));
  }), { numRuns: 1000, seed: 11 });
});

test('splitsAtWhitespace: only per-word models whose normaliser and pre-tokeniser never join across whitespace', () => {
  const base = { model: { type: 'WordLevel', vocab: {} }, normalizer: { type: 'Lowercase' }, pre_tokenizer: { type: 'WhitespaceSplit' }, added_tokens: [] };
  assert.equal(splitsAtWhitespace(base), true);
  assert.equal(splitsAtWhitespace({ ...base, model: { type: 'BPE', vocab: {} } }), false); // byte-level BPE keeps spaces in tokens
  assert.equal(splitsAtWhitespace({ ...base, model: { type: 'Unigram', vocab: [] } }), false); // SentencePiece: Metaspace
  assert.equal(splitsAtWhitespace({ ...base, pre_tokenizer: { type: 'Metaspace' } }), false);
  assert.equal(splitsAtWhitespace({ ...base, pre_tokenizer: null }), false);
  // BertNormalizer's clean_text deletes \f and \v: "a\fb" is one word for BERT, two pieces here
  assert.equal(splitsAtWhitespace({ ...base, normalizer: { type: 'BertNormalizer', clean_text: true } }), false);
  assert.equal(splitsAtWhitespace({ ...base, normalizer: { type: 'Replace', pattern: { String: ' ' }, content: '' } }), false);
  assert.equal(splitsAtWhitespace({ ...base, added_tokens: [{ content: 'new york', lstrip: false, rstrip: false }] }), false);
  assert.equal(splitsAtWhitespace({ ...base, added_tokens: [{ content: '<mask>', lstrip: true, rstrip: false }] }), false);
  assert.equal(splitsAtWhitespace({ ...base, pre_tokenizer: { type: 'Split', pattern: { Regex: '\\w+ \\w+' }, behavior: 'Removed', invert: true } }), false);
});
