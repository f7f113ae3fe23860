// `npm run sample`: the main job on real documents. Runs the 30-config grid on the FastAPI docs of
// ../shared/data (45 questions; the ground truth lives outside the corpus, so it is passed with
// --groundtruth) — or, when ../shared is absent (a user's clone), on the small corpus shipped in
// samples/. Runs and caches are written inside the repo under .sample-runs/ (git-ignored), never
// into the corpus folder (../shared is read-only in CI). Prints the ranking table and where the HTML
// report was written.
//   node scripts/sample.mjs [--prose | --mini] [extra `spanproof run` flags...]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const prose = args.includes('--prose');
const mini = args.includes('--mini'); // force the shipped samples/ corpus (what a clone without ../shared gets)
const extra = args.filter((a) => a !== '--prose' && a !== '--mini');
const shared = resolve(repo, '..', 'shared', 'data');
let name, workspace, groundtruth;
if (prose && existsSync(join(shared, 'prose'))) {
  [name, workspace, groundtruth] = ['prose', join(shared, 'prose'), join(shared, 'prose.groundtruth.json')];
} else if (!mini && existsSync(join(shared, 'fastapi-docs'))) {
  [name, workspace, groundtruth] = ['fastapi-docs', join(shared, 'fastapi-docs'), join(shared, 'fastapi-docs.groundtruth.json')];
} else {
  console.error('../shared/data is absent: running on the sample corpus shipped in samples/.');
  [name, workspace, groundtruth] = ['fastapi-mini', join(repo, 'samples', 'fastapi-mini'), join(repo, 'samples', 'fastapi-mini.groundtruth.json')];
}

const node = process.execPath;
const build = spawnSync(node, [join(repo, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 3);

const base = join(repo, '.sample-runs', name);
const runsDir = join(base, 'runs');
mkdirSync(runsDir, { recursive: true });
const before = new Set(readdirSync(runsDir));
const cli = join(repo, 'dist', 'cli.js');
console.error(`Running the grid on ${workspace} with ${groundtruth}`);
const run = spawnSync(node, [cli, 'run', '--workspace', workspace, '--groundtruth', groundtruth, '--runs-dir', runsDir, '--cache-dir', join(base, 'cache'), ...extra], { cwd: repo, stdio: 'inherit' });
if (run.status !== 0 && run.status !== 1) process.exit(run.status ?? 3);
const fresh = readdirSync(runsDir).filter((d) => !before.has(d)).sort();
if (!fresh.length) process.exit(run.status ?? 3);
const runDir = join(runsDir, fresh[fresh.length - 1]);
const html = join(runDir, 'report.html');
const rep = spawnSync(node, [cli, 'report', runDir, '--format', 'html', '--out', html], { cwd: repo, stdio: 'inherit' });
if (rep.status !== 0) process.exit(rep.status ?? 3);
spawnSync(node, [cli, 'report', runDir, '--format', 'md', '--out', join(runDir, 'report.md')], { cwd: repo, stdio: 'ignore' });
console.log(`\nHTML report: ${html}`);
process.exit(run.status ?? 0);
