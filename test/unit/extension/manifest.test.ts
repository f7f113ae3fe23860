// The extension manifest as the Marketplace, Open VSX and VS Code read it (issue 15 item 8): strings in
// package.nls.json, settings grouped and described with scopes, enum descriptions, the icon, the
// walkthrough's images and command links, README images that exist, and the 400-line rule of src/extension
// and webview/.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { REPO } from '../../helpers/paths';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(path.join(REPO, 'package.nls.json'), 'utf8'));
const c = pkg.contributes;

test('every %key% of package.json is in package.nls.json, and every string there is used', () => {
  const used = new Set([...JSON.stringify(pkg).matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]));
  assert.deepEqual([...used].filter((k) => !(k in nls)), [], 'missing from package.nls.json');
  assert.deepEqual(Object.keys(nls).filter((k) => !used.has(k)), [], 'unused in package.json');
  for (const [k, v] of Object.entries(nls)) assert.ok(v.trim().length > 0, `${k} is empty`);
  for (const cmd of c.commands) assert.match(cmd.title, /^%command\..+\.title%$/, `${cmd.command} title localised`);
});

test('settings come in titled groups; each has a description, a scope and an order; enum items are described', () => {
  assert.ok(Array.isArray(c.configuration) && c.configuration.length >= 4, 'grouped');
  const seen = new Set<string>();
  for (const g of c.configuration) {
    assert.ok(g.id && g.title && typeof g.order === 'number', `group ${g.id} titled and ordered`);
    for (const [k, v] of Object.entries(g.properties) as Array<[string, Record<string, unknown> & { items?: { enum?: unknown[]; enumDescriptions?: unknown[] }; enum?: unknown[]; enumDescriptions?: unknown[] }]>) {
      assert.ok(!seen.has(k), `${k} in one group only`);
      seen.add(k);
      assert.ok(v.markdownDescription || v.description, `${k} described`);
      assert.ok(['resource', 'machine-overridable', 'window', 'application', 'machine', 'language-overridable'].includes(String(v.scope)), `${k} has a scope`);
      assert.equal(typeof v.order, 'number', `${k} ordered`);
      if (v.enum) assert.equal(v.enumDescriptions?.length, v.enum.length, `${k} enumDescriptions`);
      if (v.items?.enum) assert.equal(v.items.enumDescriptions?.length, v.items.enum.length, `${k} items.enumDescriptions`);
    }
  }
  for (const r of pkg.capabilities.untrustedWorkspaces.restrictedConfigurations) assert.ok(seen.has(r), `restricted ${r} is a setting`);
});

test('Marketplace fields: a 128×128 PNG icon, categories, keywords; a repository, when set, is https', () => {
  const icon = readFileSync(path.join(REPO, pkg.icon));
  assert.equal(icon.subarray(1, 4).toString(), 'PNG');
  assert.equal(icon.readUInt32BE(16), 128, 'width');
  assert.equal(icon.readUInt32BE(20), 128, 'height');
  assert.ok(pkg.categories.length > 0 && pkg.keywords.length > 0 && pkg.keywords.length <= 30);
  if (pkg.repository) assert.match(typeof pkg.repository === 'string' ? pkg.repository : pkg.repository.url, /^(git\+)?https:\/\//);
  assert.equal(pkg.scripts.package, 'node scripts/package.mjs');
});

test('the walkthrough: every step has an existing image with alt text and a command link to a contributed or built-in command', () => {
  const ours = new Set(c.commands.map((x: { command: string }) => x.command));
  const [wt] = c.walkthroughs;
  assert.equal(wt.steps.length, 6);
  for (const s of wt.steps) {
    assert.ok(existsSync(path.join(REPO, s.media.image)), `${s.id}: ${s.media.image} exists`);
    assert.ok(nls[s.media.altText.slice(1, -1)], `${s.id}: alt text`);
    const desc = nls[s.description.slice(1, -1)];
    const links = [...desc.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
    assert.ok(links.length > 0, `${s.id}: a command link`);
    for (const l of links) assert.ok(ours.has(l) || l.startsWith('workbench.'), `${s.id}: ${l} exists`);
  }
});

test('README images are files of the repository (packaging rewrites them to absolute URLs)', () => {
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(images.length > 0);
  for (const i of images) if (!/^https:\/\//.test(i)) assert.ok(existsSync(path.join(REPO, i)), `${i} exists`);
});

test('no file in src/extension or webview/ is over 400 lines (issue 15)', () => {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(path.join(d, n)).isDirectory() ? walk(path.join(d, n)) : [path.join(d, n)]));
  const files = [path.join(REPO, 'src', 'extension'), path.join(REPO, 'webview')].flatMap(walk);
  const long = files.map((f) => [path.relative(REPO, f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
  assert.deepEqual(long, []);
});
