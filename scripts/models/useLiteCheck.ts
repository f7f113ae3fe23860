/**
 * The use-lite build check: the converted ONNX models against the ORIGINAL TF.js graph on real
 * sentences of the sample corpora, token ids against the TF.js tokenizer, and hit@5 of the fp32 and
 * shipped models on the sample corpora. Thresholds (issue #12): cosine ≥ 0.9999 per text for fp32 vs
 * TF.js; cosine ≥ 0.99 per text for the shipped weights vs fp32; token ids identical everywhere.
 */
import { openOnnxEmbedder } from '../../src/core/models/embedder';
import { USE_LITE } from '../../src/core/models/build/useLiteGraph';
import { openModelFolder } from '../../src/core/models/folder';
import { corpusLines, sampleTexts } from './sampleText';
import { loadUseReference } from './useReference';
import { type QualityRow, denseHitAt5 } from './quality';

export const FP32_MIN_COSINE = 0.9999;
export const SHIPPED_MIN_COSINE = 0.99;
const SENTENCES_PER_CORPUS = 60;
const LONG_PER_CORPUS = 5;

export interface CosineStats {
  min: number;
  median: number;
}

export interface CheckFigures {
  texts: number;
  longTexts: number;
  tokenTextsCompared: number;
  tokenMismatches: number;
  fp32VsTfjs: CosineStats;
  shippedVsTfjs: CosineStats;
  shippedVsFp32: CosineStats;
  quality: QualityRow[];
}

function cosines(a: Float32Array, b: Float32Array, dim: number): number[] {
  const out: number[] = [];
  for (let o = 0; o < a.length; o += dim) {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let d = 0; d < dim; d++) {
      ab += a[o + d] * b[o + d];
      aa += a[o + d] * a[o + d];
      bb += b[o + d] * b[o + d];
    }
    out.push(ab / Math.sqrt(aa * bb));
  }
  return out;
}

function stats(c: number[]): CosineStats {
  const s = [...c].sort((x, y) => x - y);
  return { min: s[0], median: s[Math.floor(s.length / 2)] };
}

async function embedFolder(dir: string, texts: string[]): Promise<Float32Array> {
  const e = await openOnnxEmbedder(dir, { threads: 2 });
  try {
    return await e.embed(texts);
  } finally {
    await e.dispose();
  }
}

/**
 * Runs the whole check for the two model folders (fp32 and shipped). `quality` = false skips the
 * hit@5 grid runs (they take minutes). Prints progress to stderr.
 */
export async function runUseLiteCheck(fp32Dir: string, shippedDir: string, quality: boolean): Promise<CheckFigures> {
  const ref = await loadUseReference();
  const samples = sampleTexts(SENTENCES_PER_CORPUS, LONG_PER_CORPUS);
  const texts = samples.map((s) => s.text);
  const ours = openModelFolder(shippedDir).tokenizer;
  // Token ids: the sampled texts and every non-blank line of every corpus, untruncated.
  const all = [...texts, ...corpusLines()];
  let mismatches = 0;
  for (const t of all) if (ref.tokenize(t).join(',') !== ours.idsOf(t).join(',')) mismatches++;
  console.error(`token ids: ${all.length - mismatches}/${all.length} texts identical`);
  const refVecs = new Float32Array(texts.length * USE_LITE.modelDim);
  for (let s = 0; s < texts.length; s += 16) refVecs.set(await ref.embed(texts.slice(s, s + 16)), s * USE_LITE.modelDim);
  const fp32 = await embedFolder(fp32Dir, texts);
  const shipped = await embedFolder(shippedDir, texts);
  const figures: CheckFigures = {
    texts: texts.length,
    longTexts: samples.filter((s) => s.text.length >= 1000).length,
    tokenTextsCompared: all.length,
    tokenMismatches: mismatches,
    fp32VsTfjs: stats(cosines(fp32, refVecs, USE_LITE.modelDim)),
    shippedVsTfjs: stats(cosines(shipped, refVecs, USE_LITE.modelDim)),
    shippedVsFp32: stats(cosines(shipped, fp32, USE_LITE.modelDim)),
    quality: [],
  };
  if (quality) figures.quality = await denseHitAt5({ fp32: fp32Dir, shipped: shippedDir });
  return figures;
}

/** Threshold failures, one message each (empty = pass). */
export function checkFailures(f: CheckFigures): string[] {
  const bad: string[] = [];
  if (f.tokenMismatches > 0) bad.push(`${f.tokenMismatches} texts tokenise differently from the TF.js tokenizer`);
  if (f.fp32VsTfjs.min < FP32_MIN_COSINE) bad.push(`fp32 vs TF.js: min cosine ${f.fp32VsTfjs.min} < ${FP32_MIN_COSINE}`);
  if (f.shippedVsFp32.min < SHIPPED_MIN_COSINE) bad.push(`shipped vs fp32: min cosine ${f.shippedVsFp32.min} < ${SHIPPED_MIN_COSINE}`);
  if (f.texts < 200) bad.push(`only ${f.texts} texts compared (≥ 200 required)`);
  return bad;
}

/** Floors to `d` decimals, so a printed minimum never claims more than was measured. */
const floor = (x: number, d: number) => (Math.floor(x * 10 ** d) / 10 ** d).toFixed(d);

/** The figures as the README's Markdown (stable precision: cosines floored to 6 (fp32) or 4 (int8) decimals, hit@5 to 3). */
export function figuresMarkdown(f: CheckFigures): string {
  const q =
    f.quality.length === 0
      ? ''
      : `\nhit@5 of \`recursive/dense/none\` (defaults: size 800, overlap 100; k = 5, τ = 0.9) with the fp32 and the shipped int8 model:

| corpus | questions | fp32 | int8 (shipped) |
|---|---:|---:|---:|
${f.quality.map((r) => `| ${r.corpus} | ${r.questions} | ${r.fp32.toFixed(3)} | ${r.shipped.toFixed(3)} |`).join('\n')}
`;
  return `Texts: ${f.texts} drawn from the FastAPI docs, the prose books, the Chroma corpora and the SQuAD
contexts (${f.longTexts} of them paragraphs longer than 128 tokens, to check truncation); the cosine
is taken per text (fp32 figures floored to 6 decimals, int8 ones to 4).

| comparison | min cosine | median cosine | required |
|---|---:|---:|---|
| fp32 ONNX vs TF.js | ${floor(f.fp32VsTfjs.min, 6)} | ${floor(f.fp32VsTfjs.median, 6)} | ≥ ${FP32_MIN_COSINE} each |
| int8 ONNX (shipped) vs TF.js | ${floor(f.shippedVsTfjs.min, 4)} | ${floor(f.shippedVsTfjs.median, 4)} | — |
| int8 ONNX (shipped) vs fp32 ONNX | ${floor(f.shippedVsFp32.min, 4)} | ${floor(f.shippedVsFp32.median, 4)} | ≥ ${SHIPPED_MIN_COSINE} each |

Token ids: ${f.tokenTextsCompared - f.tokenMismatches} of ${f.tokenTextsCompared} texts (the sample above and every non-blank line of
those corpora) tokenise to exactly the ids of the TF.js tokenizer.
${q}`;
}
