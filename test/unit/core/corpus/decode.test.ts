import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeDocument, sha256Hex } from '../../../../src/core/corpus';
import { firstInvalidUtf8 } from '../../../../src/core/corpus/decode';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

test('sha256Hex matches the FIPS 180-2 test vectors', () => {
  // FIPS 180-2 appendix B.1 ("abc") and the well-known empty-string digest.
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('decodeDocument removes one leading BOM and nothing else (CRLF stays CRLF)', () => {
  const body = 'Title\r\nline two\r\n';
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc(body)]);
  const doc = decodeDocument('a.md', bytes);
  assert.ok('text' in doc);
  assert.equal(doc.text, body);
  assert.equal(doc.text.length, 17);
  assert.equal(doc.bytes, 3 + 17);
  assert.equal(doc.sha256, sha256Hex(body));
  // A second BOM is text, not a BOM.
  const two = decodeDocument('b.md', new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x41]));
  assert.ok('text' in two);
  assert.equal(two.text, '\ufeffA');
});

test('decodeDocument keeps emoji as surrogate pairs (UTF-16 length ≠ code points)', () => {
  const doc = decodeDocument('e.md', enc('🚀 go'));
  assert.ok('text' in doc);
  assert.equal(doc.text.length, 5); // 2 code units for U+1F680 + " go"
  assert.equal([...doc.text].length, 4);
});

test('decodeDocument skips NUL-containing files as binary', () => {
  const r = decodeDocument('x.txt', new Uint8Array([0x61, 0x62, 0x00, 0x63]));
  assert.deepEqual(r, { source: 'x.txt', reason: 'binary', detail: 'contains a NUL byte at byte 2 (a binary or UTF-16 file)' });
  // UTF-16LE with BOM: FF FE 41 00
  const u16 = decodeDocument('u16.txt', new Uint8Array([0xff, 0xfe, 0x41, 0x00]));
  assert.ok(!('text' in u16) && u16.reason === 'binary');
});

test('decodeDocument skips invalid UTF-8 and names the byte offset', () => {
  // "café" in Latin-1: 63 61 66 E9 — E9 starts a 3-byte sequence that is not continued.
  const r = decodeDocument('latin1.md', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  assert.deepEqual(r, { source: 'latin1.md', reason: 'not-utf8', detail: 'invalid UTF-8 at byte 3' });
});

test('firstInvalidUtf8 follows RFC 3629 (overlongs, surrogates, > U+10FFFF rejected)', () => {
  assert.equal(firstInvalidUtf8(enc('aé中🚀')), -1);
  assert.equal(firstInvalidUtf8(new Uint8Array([0x41, 0xc0, 0x80])), 1); // overlong NUL
  assert.equal(firstInvalidUtf8(new Uint8Array([0xe0, 0x80, 0x80])), 0); // overlong 3-byte
  assert.equal(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80])), 0); // UTF-16 surrogate D800
  assert.equal(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80])), 0); // U+110000
  assert.equal(firstInvalidUtf8(new Uint8Array([0x41, 0x42, 0x80])), 2); // lone continuation
  assert.equal(firstInvalidUtf8(new Uint8Array([0xf0, 0x9f, 0x9a])), 0); // truncated 4-byte
});
