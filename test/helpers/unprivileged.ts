/**
 * Permission tests (chmod 000 / 0500 stops reads and writes) mean nothing to root, which is how CI
 * runs the suite. {@link asUnprivileged} makes such a test run anyway (#16 item 24): when this process
 * is root, the test re-runs itself — this file, this test name only — in a child process as the
 * unprivileged user `nobody` (`setpriv --reuid --regid --clear-groups`), with its own HOME and temp
 * folder (a fresh temp copy of nothing but the scratch space; the checkout is only read), and passes
 * only if the child ran the test (not skipped) and it passed.
 *
 * Where that cannot work (no setpriv, or the checkout is not readable by `nobody`), the test skips
 * with the reason — and FAILS with it when `CI` is set, so a CI run never passes without the check.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './paths';
import { tempDir } from './tmp';

const NOBODY = 65534;

export const isRoot = process.getuid?.() === 0;

/** Why the unprivileged re-run is impossible here, or null when it can run. */
function unavailable(): string | null {
  if (process.platform === 'win32') return 'POSIX permissions only';
  if (!['/usr/bin/setpriv', '/bin/setpriv', '/usr/sbin/setpriv'].some((p) => existsSync(p))) return 'setpriv (util-linux) is not installed';
  const probe = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(join(REPO, 'package.json'))})`]);
  if (probe.status !== 0) return `user ${NOBODY} (nobody) cannot read the checkout ${REPO}: make it world-readable (chmod -R o+rX)`;
  return null;
}

interface Ctx { name: string; skip(msg: string): void }

/**
 * In a test body: `if (await asUnprivileged(t, __filename)) return;` first. Returns true when the
 * test was handled (re-run as nobody and passed, or skipped); returns false when the caller is
 * already unprivileged and should run the body. Throws when the child failed or did not run the test.
 */
export function asUnprivileged(t: Ctx, testFile: string): boolean {
  if (!isRoot) return false;
  const why = unavailable();
  if (why) {
    if (process.env.CI) throw new Error(`"${t.name}" must run as an unprivileged user in CI, but cannot: ${why}`);
    t.skip(`running as root and ${why}`);
    return true;
  }
  const scratch = tempDir('spanproof-nobody-');
  chmodSync(scratch, 0o777);
  const pattern = `^${t.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch, TMPDIR: scratch, XDG_CACHE_HOME: scratch };
  delete env.NODE_TEST_CONTEXT; // else the child's runner believes it is nested and runs nothing
  const r = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--',
    process.execPath, '--import', 'tsx', '--test', '--test-reporter=tap', `--test-name-pattern=${pattern}`, testFile], {
    cwd: REPO, encoding: 'utf8', env,
  });
  const out = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`"${t.name}" failed as user nobody (exit ${r.status}):\n${out.slice(-3000)}`);
  const ran = /^# pass 1$/m.test(r.stdout) && !new RegExp(`^ok \\d+ - ${pattern.slice(1, -1)} # SKIP`, 'm').test(r.stdout);
  if (!ran) throw new Error(`"${t.name}" did not run as user nobody:\n${out.slice(-3000)}`);
  return true;
}
