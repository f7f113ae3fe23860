// ModelTokenizer.idsOf memoises ids per text (only a speed-up): repeated and interleaved calls must give
// exactly what @huggingface/tokenizers itself encodes (the reference), for the shipped default tokenizer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { staticGloveDir } from '../../../../src/core/models/defaultModel';
import { ModelTokenizer } from '../../../../src/core/models/tokenizer';

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
