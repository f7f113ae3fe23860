/**
 * The drafting loop against the fake OpenAI-compatible server on 127.0.0.1 (test/helpers/fakeServer),
 * which replies per document with verbatim, altered, whitespace-shifted and invented quotes,
 * duplicates and malformed JSON: only verbatim (or re-anchored-and-marked) quotes survive, every kept
 * selector resolves exactly by SPEC §3.2, malformed replies get one repair then count as rejected,
 * an unreachable endpoint stops at once naming the URL, and a cancel keeps only what verified.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../../src/core/corpus';
import { draftQuestions, DRAFT_QUESTIONS, draftPromptVersions } from '../../../../src/core/draft';
import { resolveEvidence } from '../../../../src/core/groundtruth';
import { ChatClient } from '../../../../src/core/judge';
import type { CorpusDocument } from '../../../../src/core/types';
import { startFakeServer, type DraftAsk } from '../../../helpers/fakeServer';

const doc = (source: string, text: string): CorpusDocument => ({ source, text, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) });

const DOCS = [
  doc('verbatim.md', '# Install\n\nRun pip install fastapi to install the framework and its dependencies.\nThe server is started with uvicorn main:app in a terminal.\n'),
  doc('altered.md', '# Paths\n\nPath parameters are declared with the same syntax as Python format strings.\n'),
  doc('spaces.md', '# Body\n\nA request body is data sent by the client\nto your API, usually as JSON.\n'),
  doc('invented.md', '# Limits\n\nThe default limit of items returned by the listing endpoint is one hundred.\n'),
  doc('broken.md', '# Broken\n\nThis document always gets a reply that is not JSON at all, even after repair.\n'),
  doc('repaired.md', '# Repaired\n\nThe first reply here is not JSON, but the repair request returns a good one.\n'),
  doc('dupes.md', '# Dupes\n\nDependencies are declared with Depends in the path operation function.\n'),
];

function script(a: DraftAsk): string {
  const q = (question: string, ...quotes: string[]) => ({ question, answer: 'short answer', evidence: quotes.map((quote) => ({ quote })) });
  switch (a.source) {
    case 'verbatim.md': return JSON.stringify({ questions: [q('How do I get the package onto my machine?', 'Run pip install fastapi to install the framework and its dependencies.')] });
    case 'altered.md': return JSON.stringify({ questions: [q('What syntax declares path variables?', 'Path parameters are declared with the same syntax as Python f-strings.')] });
    case 'spaces.md': return JSON.stringify({ questions: [q('What is sent to the API in the body?', 'A request body is data sent by the client to your API,  usually as JSON.')] });
    case 'invented.md': return JSON.stringify({ questions: [q('How many items come back by default?', 'The listing endpoint returns fifty items unless told otherwise.')] });
    case 'broken.md': return 'Sure! Here are your questions: question one, question two.';
    case 'repaired.md': return a.req.kind === 'repair' ? JSON.stringify({ questions: [q('What happens after an unreadable reply?', 'the repair request returns a good one.')] }) : '{"questions": [ {"question": oops ]}';
    case 'dupes.md': return `\`\`\`json\n${JSON.stringify({ questions: [q('Where are dependencies declared?', 'Dependencies are declared with Depends'), q('Where are the dependencies declared?', 'in the path operation function.')] })}\n\`\`\``;
    default: return '{"questions": []}';
  }
}

test('only verbatim or re-anchored-and-marked quotes are kept; altered/invented/malformed are rejected with reasons; duplicates dropped', async () => {
  const srv = await startFakeServer({ draft: script });
  try {
    const client = new ChatClient({ endpoint: srv.url, concurrency: 3, retries: 0 });
    const r = await draftQuestions({ documents: DOCS, existing: [], client, model: 'drafter', count: 14, perPassage: 2, now: () => new Date('2026-12-01T10:00:00Z') });
    assert.equal(r.status, 'succeeded');
    assert.equal(r.passages, 7);
    const bySource = new Map(r.drafts.map((d) => [d.evidence[0].source, d]));
    assert.deepEqual([...bySource.keys()].sort(), ['dupes.md', 'repaired.md', 'spaces.md', 'verbatim.md']);
    for (const d of r.drafts) {
      assert.equal(d.status, 'draft');
      assert.deepEqual(d.provenance, { model: 'drafter', endpoint: srv.url, promptVersion: draftPromptVersions()[DRAFT_QUESTIONS.id], passage: d.provenance!.passage, createdAt: '2026-12-01T10:00:00.000Z' });
      const text = DOCS.find((x) => x.source === d.evidence[0].source)!.text;
      for (const e of d.evidence) assert.equal(resolveEvidence(e, text).status, 'resolved'); // nothing unverified
    }
    const spaces = bySource.get('spaces.md')!.evidence[0];
    assert.equal(spaces.exact, 'A request body is data sent by the client\nto your API, usually as JSON.');
    assert.deepEqual(spaces.reanchored, { quote: 'A request body is data sent by the client to your API,  usually as JSON.', normalised: ['whitespace'] });
    assert.equal(bySource.get('verbatim.md')!.evidence[0].reanchored, undefined);
    assert.equal(r.reanchored, 1);
    const reasons = new Map(r.rejected.map((x) => [x.source, x.reason]));
    assert.match(reasons.get('altered.md')!, /^not in the document: nearest match "Path parameters are declared with the same syntax as Python format strings\."/);
    assert.match(reasons.get('invented.md')!, /^not in the document/);
    assert.match(reasons.get('broken.md')!, /^malformed reply after one retry \(no JSON object found in the reply\)$/);
    assert.equal(r.rejected.find((x) => x.source === 'broken.md')!.quote, '');
    assert.deepEqual(r.duplicates.map((d) => [d.question, d.duplicateOf]), [['Where are the dependencies declared?', bySource.get('dupes.md')!.id]]);
    // One request per passage, plus one repair for each of the two malformed first replies.
    assert.equal(srv.requests.length, 9);
    assert.equal(srv.requests.filter((x) => x.kind === 'repair').length, 2);
    assert.equal(r.ledger.requests, 9);
    assert.deepEqual(srv.requests[0].body?.response_format, { type: 'json_object' });
    // The passage is sent verbatim between the delimiters.
    assert.ok(srv.requests.every((x) => x.kind === 'repair' || DOCS.some((d) => x.messages[1].content.includes(`<<<PASSAGE\n${d.text.trim()}\nPASSAGE>>>`))));
    assert.equal(r.coverage.documents.covered, 4);
    assert.deepEqual(r.coverage.documents.uncovered.sort(), ['altered.md', 'broken.md', 'invented.md']);
  } finally {
    await srv.close();
  }
});

test('the same replies give the same drafts (ids, order), and a second run is served from the cache', async () => {
  const srv = await startFakeServer({ draft: script, script: (r) => ({ delayMs: (r.n * 37) % 50 }) as never });
  try {
    const run = () => draftQuestions({ documents: DOCS, existing: [], client: new ChatClient({ endpoint: srv.url, concurrency: 4, retries: 0 }), model: 'drafter', count: 7, now: () => new Date(0) });
    const a = await run();
    const b = await run();
    assert.deepEqual(b.drafts, a.drafts);
  } finally {
    await srv.close();
  }
});

test('a draft duplicating an existing question is dropped; existing ids are never reused', async () => {
  const srv = await startFakeServer({ draft: script });
  try {
    const existing = [{ id: 'hand-1', question: 'How do I get the package onto my machine?', evidence: [{ source: 'verbatim.md', exact: 'Run pip install fastapi' }] }];
    const r = await draftQuestions({ documents: DOCS.slice(0, 1), existing, client: new ChatClient({ endpoint: srv.url, retries: 0 }), model: 'm', count: 1 });
    assert.equal(r.drafts.length, 0);
    assert.deepEqual(r.duplicates.map((d) => d.duplicateOf), ['hand-1']);
    assert.equal(r.coverage.documents.covered, 1); // the hand question covers it
  } finally {
    await srv.close();
  }
});

test('an unreachable endpoint stops at once, naming the URL', async () => {
  const srv = await startFakeServer();
  const url = srv.url;
  await srv.close();
  const client = new ChatClient({ endpoint: url, retries: 1, sleep: async () => {} });
  await assert.rejects(draftQuestions({ documents: DOCS, existing: [], client, model: 'm', count: 7 }), (e: Error) => {
    assert.match(e.message, new RegExp(`cannot reach the endpoint ${url.replace(/[.:/]/g, '\\$&')}`));
    assert.match(e.message, /nothing was written/);
    return true;
  });
  // Stopped at once: no more than the first wave of requests (concurrency 4 × 2 attempts) was tried.
  assert.ok(client.ledger.snapshot({ status: 'failed', items: { done: 0, total: 7 }, sameModel: false }).requests <= 8);
});

test('cancelling keeps only the passages that verified before the abort', async () => {
  const ac = new AbortController();
  const srv = await startFakeServer({ draft: script, script: (r) => (r.n === 1 ? undefined : { hang: true }) });
  srv.onRequest = (r) => { if (r.n === 2) setTimeout(() => ac.abort(), 100); };
  try {
    const client = new ChatClient({ endpoint: srv.url, concurrency: 1, retries: 0 });
    const r = await draftQuestions({ documents: DOCS, existing: [], client, model: 'm', count: 7, signal: ac.signal });
    assert.equal(r.status, 'cancelled');
    assert.equal(r.ledger.status, 'cancelled');
    assert.ok(r.drafts.length <= 1);
    assert.equal(r.ledger.items.done, 1);
  } finally {
    await srv.close();
  }
});

test('an endpoint that rejects response_format is asked again without it, once per model', async () => {
  const srv = await startFakeServer({ draft: script, script: (r) => (r.body?.response_format ? { status: 400, body: JSON.stringify({ error: { message: "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model." } }) } : undefined) });
  try {
    const client = new ChatClient({ endpoint: srv.url, concurrency: 1, retries: 0 });
    const r = await draftQuestions({ documents: DOCS.slice(0, 2), existing: [], client, model: 'm', count: 2 });
    assert.equal(r.drafts.length, 1);
    assert.deepEqual(srv.requests.map((x) => !!x.body?.response_format), [true, false, false]);
  } finally {
    await srv.close();
  }
});
