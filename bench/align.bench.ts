/**
 * Fuzzy excerpt alignment benchmark (printed, never asserted; issue #16 item 13): a 999-character
 * excerpt with a changed word and a dropped comma, cut from generated contracts of 80 kB, 390 kB and
 * 4 MB (test/helpers/contracts.ts, the same generator the tests use), aligned by alignExcerpt — with the
 * work it counted — and, for comparison, the whole-document difflib block search the alignment used
 * before (SequenceMatcher.findLongestMatch over the normalised document; skipped at 4 MB with --quick,
 * where it takes ≈ 1.5 min, timed once there) against longestCommonBlock. Best of 3 after a warm-up.
 *
 *   npx tsx bench/align.bench.ts [--quick]
 */
import { alignExcerpt, longestCommonBlock, SequenceMatcher, type Alignment, type AlignmentWork } from '../src/core/align/index';
import { generatedContract, passage } from '../test/helpers/contracts';

function best<T>(fn: () => T, runs = 3): { ms: number; value: T } {
  let value = fn();
  let ms = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    value = fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, value };
}

function timedOnce<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

const quick = process.argv.includes('--quick');
for (const chars of [80_000, 390_000, 4_000_000]) {
  const text = generatedContract(chars, 5);
  const excerpt = passage(text, Math.floor(chars * 0.6), 999).text.replace(' shall ', ' will ').replace(',', '');
  const work: AlignmentWork = { blockSteps: 0, ratio: 0, compared: 0 };
  alignExcerpt(text, excerpt, work);
  const aligned = best(() => alignExcerpt(text, excerpt) as Alignment);
  const a = aligned.value;
  console.log(`${(chars / 1000).toFixed(0)} kB, ${excerpt.length}-char excerpt: alignExcerpt ${aligned.ms.toFixed(0)} ms → [${a.start}, ${a.end}) ${a.method} ${a.similarity}; block steps ${work.blockSteps}, ${work.compared} windows compared (budget charge ${work.ratio.toExponential(2)})`);
  const lower = text.toLowerCase();
  const ex = excerpt.toLowerCase();
  const linear = best(() => longestCommonBlock(ex, lower));
  let line = `  longest block: one pass ${linear.ms.toFixed(0)} ms`;
  if (!(quick && chars > 1e6)) {
    // the generated text is ASCII, so code points = code units here
    const search = () => new SequenceMatcher(ex, lower, { autojunk: false }).findLongestMatch(0, ex.length, 0, lower.length);
    const whole = chars > 1e6 ? timedOnce(search) : best(search);
    line += `, difflib over the whole document ${whole.ms.toFixed(0)} ms (same block: ${whole.value[2] === linear.value.size && whole.value[1] === linear.value.bStart})`;
  }
  console.log(line);
}
