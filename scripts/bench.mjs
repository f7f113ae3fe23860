// `npm run bench`: runs every bench/*.bench.ts (sorted) one after another with tsx, printing their
// figures. Benchmarks print, never assert. Pass substrings to filter: `node scripts/bench.mjs grid`.
// Extra flags after `--` go to every benchmark (e.g. `-- --quick`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const dd = argv.indexOf('--');
const filters = dd < 0 ? argv : argv.slice(0, dd);
const passthrough = dd < 0 ? [] : argv.slice(dd + 1);
const files = readdirSync('bench').filter((f) => f.endsWith('.bench.ts')).sort().filter((f) => !filters.length || filters.some((s) => f.includes(s)));
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join('bench', f), ...passthrough], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`${f} exited with ${r.status}`);
  }
}
process.exit(failed ? 1 : 0);
