/**
 * Generation-loop benchmark (printed, never asserted), against the fake OpenAI-compatible server of
 * the tests on 127.0.0.1 (test/helpers/fakeServer.ts):
 * 1. throughput at concurrency 1, 4 and 16 with a simulated endpoint latency of 25 ms per request —
 *    items/s and requests/s (an item = 1 answer + all 9 judge metrics, 13 requests);
 * 2. the same with 0 ms latency (HTTP + client cost);
 * 3. the loop's own overhead per item (prompt rendering, JSON extraction, claim bookkeeping), with the
 *    HTTP round trip replaced by the canned reply in-process;
 * 4. a repeated run served from the disk cache (0 requests).
 *
 *   npx tsx bench/judge.bench.ts [items] [--quick]      (default 48 items; --quick 16)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatClient, ReplyCache, generateAndJudge, type ChatReply, type ChatRequest, type GenerationItem } from '../src/core/judge/index';
import { cannedContent, startFakeServer, type FakeRequest } from '../test/helpers/fakeServer';

const argN = process.argv.slice(2).find((a) => /^\d+$/.test(a));
const N = argN ? Number(argN) : process.argv.includes('--quick') ? 16 : 48;
const items: GenerationItem[] = Array.from({ length: N }, (_, i) => ({
  question: `q${i}`,
  questionText: `What is the default port of service ${i}?`,
  reference: `The default port of service ${i} is ${8000 + i}.`,
  config: 'heading/bm25/none',
  contexts: [
    { source: 'docs/a.md', start: 0, end: 40, text: `The default port of service ${i} is ${8000 + i}.` },
    { source: 'docs/b.md', start: 0, end: 30, text: 'Logs go to stderr. Paris is the capital of France.' },
  ],
  coverage: 1,
}));
const answers = Object.fromEntries(items.map((it, i) => [it.questionText, `The default port of service ${i} is ${8000 + i}. It listens on all interfaces.`]));

/** A client whose reply comes from the canned responder in-process (no HTTP): the loop's own cost. */
class InProcessClient extends ChatClient {
  override async chat(req: ChatRequest): Promise<ChatReply> {
    const sys = req.messages.find((m) => m.role === 'system')?.content ?? '';
    const last = req.messages[req.messages.length - 1].content;
    const kind: FakeRequest['kind'] = sys.includes('You answer questions') ? 'generate' : sys.includes('"claims"') ? 'claims' : sys.includes('"verdicts"') ? 'verify' : sys.includes('"correct"') ? 'boolean' : last.includes('could not be read') ? 'repair' : 'scale';
    const content = cannedContent({ n: 0, model: req.model, messages: req.messages, kind }, { answers });
    return { content, finishReason: 'stop', refusal: null, promptTokens: 10, completionTokens: 5, cached: false };
  }
}

async function timeLoop(client: ChatClient): Promise<{ ms: number; requests: number; cached: number }> {
  const t0 = performance.now();
  const r = await generateAndJudge(items, { client, generatorModel: 'gen', judgeModel: 'judge' });
  const ms = performance.now() - t0;
  if (r.records.length !== N) throw new Error(`only ${r.records.length}/${N} items finished`);
  const l = client.ledger.snapshot({ status: 'succeeded', items: { done: N, total: N }, sameModel: false });
  return { ms, requests: l.requests, cached: l.cachedResponses };
}

async function main(): Promise<void> {
  console.log(`judge bench: ${N} items × (1 answer + 9 judge metrics), fake server on 127.0.0.1`);
  console.log('latency  conc   wall ms   items/s   req/s  requests  max in flight');
  for (const delayMs of [25, 0]) {
    for (const concurrency of [1, 4, 16]) {
      const srv = await startFakeServer({ answers, delayMs });
      try {
        const r = await timeLoop(new ChatClient({ endpoint: srv.url, concurrency }));
        console.log(`${String(delayMs).padStart(5)} ms ${String(concurrency).padStart(5)} ${r.ms.toFixed(0).padStart(9)} ${(N / (r.ms / 1000)).toFixed(1).padStart(9)} ${(r.requests / (r.ms / 1000)).toFixed(0).padStart(7)} ${String(r.requests).padStart(9)} ${String(srv.maxInFlight).padStart(14)}`);
      } finally {
        await srv.close();
      }
    }
  }
  // Loop overhead without HTTP: best of 3.
  let best = Infinity;
  for (let i = 0; i < 3; i++) best = Math.min(best, (await timeLoop(new InProcessClient({ endpoint: 'http://127.0.0.1:9/v1', concurrency: 16 }))).ms);
  console.log(`loop overhead (no HTTP, in-process replies): ${(best / N).toFixed(3)} ms per item, ${((best / N) / 13 * 1000).toFixed(0)} µs per judge call`);
  // Cached re-run.
  const dir = mkdtempSync(join(tmpdir(), 'spanproof-judge-bench-'));
  const srv = await startFakeServer({ answers });
  try {
    await timeLoop(new ChatClient({ endpoint: srv.url, concurrency: 16, cache: new ReplyCache(dir) }));
    const r = await timeLoop(new ChatClient({ endpoint: srv.url, concurrency: 16, cache: new ReplyCache(dir) }));
    console.log(`cached re-run: ${r.ms.toFixed(0)} ms (${(r.ms / N).toFixed(2)} ms per item), ${r.requests} requests, ${r.cached} cached replies`);
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
