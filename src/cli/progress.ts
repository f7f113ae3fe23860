/**
 * The CLI's progress display for `spanproof run` (#16 item 18): the stage in words (the one
 * `describeStage` the editor shows too — never an internal id such as `embed:recursive`), the bar,
 * elapsed time and an ETA (linear in work units done, shown once 2 % is done). On a terminal it is
 * one `\r` line on stderr; otherwise (a pipe, a CI log) a plain line per stage change or every 2 s.
 * The bar uses no colour, so `NO_COLOR` / `FORCE_COLOR` need nothing.
 */
import { describeStage } from '../shared/protocol';
import { writeProgress } from './terminal';

/** `m:ss` (or `h:mm:ss`) of a duration in ms. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/**
 * One progress line: `[#####.....]  42% Retrieving (heading)…  1:05 elapsed, ~1:30 left`.
 * @param bar width of the bar in characters; 0 = no bar (non-terminal output).
 */
export function progressLine(p: { done: number; total: number; stage: string }, elapsedMs: number, bar = 30): string {
  const f = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  const pct = `${String(Math.floor(f * 100)).padStart(3)}%`;
  const eta = f >= 0.02 && f < 1 ? `, ~${clock((elapsedMs * (1 - f)) / f)} left` : '';
  const head = bar > 0 ? `[${'#'.repeat(Math.round(f * bar)).padEnd(bar, '.')}] ` : '';
  return `${head}${pct} ${describeStage(p.stage)}  ${clock(elapsedMs)} elapsed${eta}`;
}

/** The printer `run` feeds with the worker's progress; silent with `--json`. */
export function progressPrinter(json: boolean, now: () => number = Date.now): { update(done: number, total: number, stage: string): void; end(): void } {
  const tty = process.stderr.isTTY && !json;
  const start = now();
  let lastLine = 0;
  let lastWords = '';
  let width = 0;
  return {
    update(done, total, stage) {
      if (json) return;
      const line = progressLine({ done, total, stage }, now() - start, tty ? 30 : 0);
      if (tty) {
        writeProgress(`\r${line.padEnd(width)}`);
        width = Math.max(width, line.length);
      } else if (describeStage(stage) !== lastWords || now() - lastLine > 2000) {
        // A new line when the words change (chunk:x and index:x read the same) or every 2 s.
        lastLine = now();
        lastWords = describeStage(stage);
        process.stderr.write(`progress ${line}\n`);
      }
    },
    end() {
      if (tty) process.stderr.write('\n');
    },
  };
}
