/**
 * #16 N8: `review --accept` accepted a draft whose evidence quote no longer resolved in the (changed)
 * document, without a word — an ordinary question that the next run then reports stale. Accepting now
 * re-checks each draft against the documents as they are (SPEC §3.2: verbatim, line endings aside): a
 * draft that no longer resolves stays a draft, and the command exits 2 naming it with a Fix; the ones
 * that resolve are accepted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli';
import { REPO } from '../../helpers/paths';
import { tempDir } from '../../helpers/tmp';

const MINI = join(REPO, 'samples', 'fastapi-mini');
const MINI_GT = join(REPO, 'samples', 'fastapi-mini.groundtruth.json');
const KEPT = 'To declare a request body, you use Pydantic models with all their power and\nbenefits.';
const EDITED = 'Use standard Python types\nfor all the attributes.';

/** The mini workspace with two drafts quoting tutorial/body.md; then the second quote is edited out of the document. */
function workspace(t: { after(f: () => void): void }): { ws: string; gt: string } {
  const ws = tempDir('spanproof-review-stale-', t);
  cpSync(MINI, ws, { recursive: true });
  mkdirSync(join(ws, '.spanproof'));
  const gt = join(ws, '.spanproof', 'groundtruth.json');
  const file = JSON.parse(readFileSync(MINI_GT, 'utf8'));
  const draft = (id: string, exact: string) => ({ id, question: `Question ${id}?`, status: 'draft', evidence: [{ source: 'tutorial/body.md', exact }] });
  file.questions.push(draft('d-kept', KEPT), draft('d-edited', EDITED));
  writeFileSync(gt, `${JSON.stringify(file, null, 2)}\n`);
  const doc = join(ws, 'tutorial', 'body.md');
  const text = readFileSync(doc, 'utf8');
  assert.ok(text.includes(KEPT) && text.includes(EDITED));
  writeFileSync(doc, text.replace(EDITED, 'Use standard Python types for every attribute.'));
  return { ws, gt };
}

const statusOf = (gt: string, id: string) => JSON.parse(readFileSync(gt, 'utf8')).questions.find((q: { id: string }) => q.id === id)?.status ?? 'accepted';

for (const how of [['--accept', 'd-kept', 'd-edited'], ['--accept-all']]) {
  test(`review ${how[0]}: a draft whose quote no longer matches stays a draft and exits 2 naming it; the other is accepted`, { skip: !existsSync(MINI_GT) && 'samples/fastapi-mini is absent', timeout: 60000 }, async (t) => {
    const { ws, gt } = workspace(t);
    const r = await runCli(['review', '--workspace', ws, ...how]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, 'Accepted 1 draft(s): d-kept — they are ordinary questions now and the next run scores them. Previous version in ' + `${gt}.bak.\n`);
    assert.match(r.stderr, /^spanproof: [^\n]*groundtruth\.json: 1 draft\(s\) not accepted, their evidence no longer matches the documents verbatim: d-edited \([^)]*tutorial\/body\.md[^)]*\)\. They stay drafts\. Fix: correct each quote \("exact"\) to the document's current text, or reject the draft \(spanproof review --reject d-edited\); spanproof review --list shows them\.\n$/);
    assert.doesNotMatch(r.stderr, /d-kept/);
    assert.equal(statusOf(gt, 'd-kept'), 'accepted');
    assert.equal(statusOf(gt, 'd-edited'), 'draft');
    // --json says the same on stdout, and the exit status is still 2
    const again = await runCli(['review', '--workspace', ws, '--accept', 'd-edited', '--json']);
    assert.equal(again.code, 2, again.stderr);
    const out = JSON.parse(again.stdout);
    assert.deepEqual([out.accepted, out.written, out.notAccepted.map((d: { id: string }) => d.id)], [[], false, ['d-edited']]);
    assert.equal(statusOf(gt, 'd-edited'), 'draft');
  });
}
