// The JSON Schemas the extension contributes (scripts/build-schemas.ts → media/schemas/), checked with
// vscode-json-languageservice — the validator behind VS Code's own JSON squiggles — against every
// ground-truth file of the repository's fixtures and samples (incl. the copies of ../shared/data in test/fixtures/shared-data), and
// against broken files. A file the parser accepts must get no schema diagnostic; a file it refuses for a
// reason the schema can express must get one at the right place.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { getLanguageService, TextDocument, type Diagnostic } from 'vscode-json-languageservice';
import { buildSchemas, SCHEMA_DIR } from '../../../scripts/build-schemas';
import { parseGroundTruth, serializeGroundTruth } from '../../../src/core/groundtruth';
import { runImport, type ImportFormat } from '../../../src/core/import';
import { tempDir } from '../../helpers/tmp';
import { DEFAULT_SETTINGS, parseRunSettings } from '../../../src/core/settings';
import { FIXTURES, REPO } from '../../helpers/paths';

const schemas = buildSchemas();

async function diagnose(schema: unknown, text: string): Promise<Diagnostic[]> {
  const ls = getLanguageService({});
  ls.configure({ validate: true, allowComments: false, schemas: [{ uri: 'inmemory://schema.json', fileMatch: ['*.json'], schema: schema as never }] });
  const doc = TextDocument.create('file:///doc.json', 'json', 1, text);
  return ls.doValidation(doc, ls.parseJSONDocument(doc), { schemaValidation: 'error', trailingCommas: 'error' });
}
const gt = (text: string) => diagnose(schemas.groundtruth, text);
const cfg = (text: string) => diagnose(schemas.config, text);

/** Every JSON file under `dir` with a "questions" array: a ground-truth file, valid or not. */
function groundTruthFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (name === 'node_modules' || name === 'runs' || name === 'cache') continue;
    if (statSync(p).isDirectory()) out.push(...groundTruthFiles(p));
    else if (name.endsWith('.json') && statSync(p).size < 50_000_000 && /"questions"\s*:/.test(readFileSync(p, 'utf8').slice(0, 4096))) out.push(p);
  }
  return out;
}

test('the generated schemas are the files the build wrote into media/schemas', () => {
  for (const [name, s] of [['groundtruth', schemas.groundtruth], ['config', schemas.config]] as const) {
    const file = path.join(SCHEMA_DIR, `${name}.schema.json`);
    assert.ok(existsSync(file), `${file} exists (npm run build writes it)`);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), s);
  }
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  const urls = pkg.contributes.jsonValidation.map((j: { url: string }) => j.url);
  assert.deepEqual([...new Set(urls)].sort(), ['./media/schemas/config.schema.json', './media/schemas/groundtruth.schema.json']);
});

test('every ground-truth file of the fixtures, samples and shared data: schema and parser agree', async () => {
  const files = [...groundTruthFiles(FIXTURES), ...groundTruthFiles(path.join(REPO, 'samples')), ];
  assert.ok(files.length >= 6, `found ${files.length} ground-truth files`);
  let valid = 0;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    let parserOk = true;
    try {
      parseGroundTruth(text, f);
    } catch {
      parserOk = false;
    }
    const d = await gt(text);
    if (parserOk) {
      valid++;
      assert.deepEqual(d.map((x) => x.message), [], `${path.relative(REPO, f)}: accepted by the parser, so no schema diagnostic`);
    } else {
      assert.ok(d.length > 0, `${path.relative(REPO, f)}: refused by the parser, flagged by the schema too`);
    }
  }
  assert.ok(valid >= 4, `${valid} valid files checked`);
});

test('the ground truth each importer writes (fixtures of SQuAD, RAGAS, Chroma, Pathway CUAD) passes the schema', async () => {
  const FIX = path.join(FIXTURES, 'interop');
  const cases: Array<[ImportFormat, string]> = [
    ['squad', path.join(FIXTURES, 'e2e', 'squad2_tiny.json')],
    ['ragas', path.join(FIX, 'ragas', 'alphabet_tables_head3.jsonl')],
    ['chroma', path.join(FIX, 'chroma', 'questions_df.csv')],
    ['pathway-cuad', path.join(FIX, 'pathway', 'labeled-head.tsv')],
  ];
  for (const [format, input] of cases) {
    const res = await runImport(format, input, { workspace: tempDir('spanproof-schema-'), ...(format === 'pathway-cuad' ? { documents: path.join(FIX, 'pathway') } : {}) });
    assert.ok(res.groundTruth.questions.length > 0, `${format} converted questions`);
    assert.deepEqual((await gt(serializeGroundTruth(res.groundTruth))).map((x) => x.message), [], `${format} ${path.basename(input)}`);
  }
});

test('broken ground truth is flagged where it is broken', async () => {
  const base = { spanproof: 1, questions: [{ id: 'q1', question: 'Where?', evidence: [{ source: 'a.md', exact: 'the quote text' }] }] };
  const at = async (obj: unknown, fragment: string) => {
    const text = JSON.stringify(obj, null, 2);
    const d = await gt(text);
    assert.ok(d.length > 0, `flagged: ${fragment}`);
    const doc = TextDocument.create('file:///x.json', 'json', 1, text);
    const where = d.map((x) => doc.getText(x.range));
    assert.ok(where.some((w) => w.includes(fragment)), `a diagnostic on ${fragment} (got ${where.join(' | ')})`);
    return d;
  };
  assert.deepEqual(await gt(JSON.stringify(base)), []);
  await at({ ...base, spanproof: 2 }, '2');
  await at({ ...base, questions: [{ ...base.questions[0], match: 'some' }] }, '"some"');
  await at({ ...base, questions: [{ ...base.questions[0], evidence: [] }] }, '[]');
  await at({ ...base, questions: [{ ...base.questions[0], evidence: [{ source: 'a.md', exact: '' }] }] }, '""');
  await at({ ...base, questions: [{ ...base.questions[0], evidence: [{ source: 'a.md', exact: 'x y z quote', start: -3, end: 9 }] }] }, '-3');
  const missing = await gt(JSON.stringify({ ...base, questions: [{ id: 'q1', evidence: base.questions[0].evidence }] }));
  assert.ok(missing.some((x) => /Missing property "question"/.test(String(x.message))), 'a missing "question" is named');
  // Unknown keys are kept by the parser (forward compatibility), so the schema allows them.
  assert.deepEqual(await gt(JSON.stringify({ ...base, note: 'kept' })), []);
});

test('the config schema accepts the defaults and VS Code-prefixed keys, and flags what parseRunSettings refuses', async () => {
  assert.deepEqual(await cfg(JSON.stringify(DEFAULT_SETTINGS)), []);
  assert.deepEqual(await cfg(JSON.stringify({ 'spanproof.k': 10, chunkers: ['heading'] })), []);
  for (const bad of [{ k: '5' }, { chunkers: ['bogus'] }, { tau: 1.5 }, { unknownKey: 1 }, { chunkerParams: { fixed: { size: 0 } } }]) {
    assert.throws(() => parseRunSettings(bad, 'x.json'), /./, `the parser refuses ${JSON.stringify(bad)}`);
    assert.ok((await cfg(JSON.stringify(bad))).length > 0, `the schema flags ${JSON.stringify(bad)}`);
  }
  // Hover text comes from the VS Code setting of the same name.
  const k = (schemas.config.properties as Record<string, { description?: string; default?: unknown }>).k;
  assert.equal(k.default, 5);
  assert.match(k.description ?? '', /\S/);
});
