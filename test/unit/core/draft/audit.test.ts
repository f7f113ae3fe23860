/**
 * The quality audit (issue #14 §4). Expected values are hand calculations written next to each
 * assertion (content words = BM25 tokens minus the stopword package's English list).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../../src/core/corpus';
import { contentWords, coverageAudit, leakageAudit, lexicalLeakage, questionSimilarity } from '../../../../src/core/draft';

test('content words drop stop words and question words', () => {
  // how, do, i, an are stop words → declare, optional, query, parameter.
  assert.deepEqual([...contentWords('How do I declare an optional query parameter?')], ['declare', 'optional', 'query', 'parameter']);
});

test('lexical leakage = share of the question\'s content words found in the evidence', () => {
  // {declare, optional, query, parameter}; the evidence has "query" and "optional" ("parameters" ≠ "parameter") → 2/4.
  assert.equal(lexicalLeakage('How do I declare an optional query parameter?', ['Query parameters are optional when they have a default.']), 0.5);
  assert.equal(lexicalLeakage('What is it?', ['anything at all']), 0); // no content word
});

test('near-duplicate similarity is the Jaccard index of content-word sets', () => {
  // A = {declare, optional, query, parameter}, B = {query, parameter, optional} ("can", "make" are stop words): |A∩B| = 3, |A∪B| = 4.
  assert.equal(questionSimilarity('How do I declare an optional query parameter?', 'How can I make a query parameter optional?'), 0.75);
  // {declare, optional, query, parameter} vs {set, default, header}: nothing shared.
  assert.equal(questionSimilarity('How do I declare an optional query parameter?', 'How do I set a default header?'), 0);
  assert.equal(questionSimilarity('What is X?', 'what is x?'), 1);
});

test('leakage distribution: quantiles (type 7), histogram, and the warning when the median is ≥ 0.6', () => {
  const a = leakageAudit([0.1, 0.5, 0.9]);
  assert.deepEqual([a.median, a.mean, a.min, a.max, a.p90], [0.5, 0.5, 0.1, 0.9, 0.82]); // p90: 0.5 + 0.8·(0.9 − 0.5)
  assert.deepEqual(a.histogram.map((h) => h.count), [1, 0, 1, 0, 1]);
  assert.equal(a.warning, undefined);
  assert.match(leakageAudit([0.6, 0.7, 1]).warning!, /median lexical leakage 0.7 ≥ 0.6/);
  assert.deepEqual(leakageAudit([]).histogram.map((h) => h.count), [0, 0, 0, 0, 0]);
});

test('coverage: documents and sections holding an evidence span, and those without', () => {
  const text = '# One\n\nfirst section text\n\n# Two\n\nsecond section text\n';
  const docs = [{ source: 'a.md', text, sha256: sha256Hex(text), bytes: text.length }, { source: 'b.md', text, sha256: sha256Hex(text), bytes: text.length }];
  const at = text.indexOf('second');
  const c = coverageAudit(docs, [{ source: 'a.md', start: at, end: at + 6 }]);
  assert.deepEqual(c.documents, { total: 2, covered: 1, uncovered: ['b.md'] });
  assert.equal(c.sections.total, 4);
  assert.equal(c.sections.covered, 1);
  assert.deepEqual(c.sections.uncovered.map((s) => `${s.source}:${s.heading}`), ['a.md:One', 'b.md:One', 'b.md:Two']);
});
