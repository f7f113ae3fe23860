// `npm run package`: production build, then the linux-x64 VSIX with vsce.
// README links and images are relative in the repository. On the Marketplace and Open VSX a relative
// image is broken, so vsce must rewrite them to absolute URLs: from package.json `repository`, or from
// SPANPROOF_REPOSITORY_URL (e.g. https://github.com/<owner>/<repo>) — links to <url>/blob/HEAD/…,
// images to <url>/raw/HEAD/…. Without either, the VSIX keeps relative links (fine for a local install,
// where VS Code shows the README from the VSIX) and this script says the images will not show when
// published.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const repo = (process.env.SPANPROOF_REPOSITORY_URL || (typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url) || '').replace(/^git\+/, '').replace(/\.git$/, '').replace(/\/$/, '');
execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
const args = ['package', '--target', 'linux-x64', '--skip-license', '--out', 'spanproof-linux-x64.vsix'];
if (repo) {
  if (!/^https:\/\//.test(repo)) throw new Error(`repository URL must be https://…, got ${repo}`);
  args.push('--baseContentUrl', `${repo}/blob/HEAD/`, '--baseImagesUrl', `${repo}/raw/HEAD/`);
} else {
  args.push('--allow-missing-repository', '--no-rewrite-relative-links');
  console.warn('package: no repository URL (package.json "repository" or SPANPROOF_REPOSITORY_URL): README images stay relative — they show in a local install, not on the Marketplace or Open VSX.');
}
execFileSync(process.execPath, ['node_modules/@vscode/vsce/vsce', ...args], { stdio: 'inherit' });
