/**
 * package.json's settings are the schema's (src/core/settings/schema.ts): `contributes.configuration`
 * and `restrictedConfigurations` equal what `vscodeContributes()` derives (`npm run gen:settings`
 * writes them), every value is documented, every default passes its own type, and every top-level
 * key says what it invalidates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, INVALIDATIONS, settingEntries, settingValues, vscodeContributes, type ConfigurationSection } from '../../../../src/core/settings';
import { REPO } from '../../../helpers/paths';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  contributes: { configuration: unknown };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};

test('package.json contributes.configuration and restrictedConfigurations are generated from the schema', () => {
  const c = vscodeContributes();
  const stale = 'package.json is out of date with src/core/settings/schema.ts: run `npm run gen:settings`';
  assert.deepEqual(pkg.contributes.configuration, c.configuration, stale);
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, c.restrictedConfigurations, stale);
  const nls = JSON.parse(readFileSync(path.join(REPO, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const settingsTexts = Object.fromEntries(Object.entries(nls).filter(([k]) => k.startsWith('config.')));
  assert.deepEqual(settingsTexts, c.nls, 'package.nls.json config.* keys are out of date with src/core/settings/schema.ts: run `npm run gen:settings`');
});

test('settings are grouped by category with scopes, and each %key% of the configuration has its English text', () => {
  const c = vscodeContributes();
  assert.ok(Array.isArray(c.configuration), 'several categories give an array of sections');
  const props = (c.configuration as ConfigurationSection[]).flatMap((s) => {
    assert.match(s.title, /^%config\.group\.\w+%$/);
    assert.ok(c.nls[s.title.slice(1, -1)], s.title);
    return Object.entries(s.properties);
  });
  assert.equal(props.length, settingValues().length, 'every value in one section');
  const keysOf = (v: unknown): string[] => (typeof v === 'string' ? [...v.matchAll(/^%(.+)%$/g)].map((m) => m[1]) : Array.isArray(v) ? v.flatMap(keysOf) : v && typeof v === 'object' ? Object.values(v).flatMap(keysOf) : []);
  for (const [key, p] of props) {
    assert.ok(p.scope, `${key} has a scope`);
    assert.equal(typeof p.order, 'number', `${key} has an order`);
    for (const k of keysOf(p)) assert.ok(c.nls[k], `${key}: %${k}% has a text`);
  }
  // The chunkers' item enum carries one description per chunker, in the enum's order.
  const chunkers = Object.fromEntries(props)['spanproof.chunkers'] as unknown as { items: { enum: string[]; enumDescriptions: string[] } };
  assert.deepEqual(chunkers.items.enumDescriptions, chunkers.items.enum.map((id) => `%config.chunkers.enum.${id}%`));
  assert.equal(Object.fromEntries(props)['spanproof.embeddingModel'].scope, 'machine-overridable');
});

test('every value has a description and a default its own type accepts; every VS Code key is one value of RunSettings', () => {
  const values = settingValues();
  assert.ok(values.length >= 30);
  for (const v of values) {
    assert.ok(v.meta.description.length > 10, `${v.path} has a description`);
    assert.ok(v.type.safeParse(v.default).success, `${v.path}: the default passes its type`);
    const atPath = v.path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], DEFAULT_SETTINGS);
    assert.deepEqual(atPath, v.default, `${v.path} is a value of DEFAULT_SETTINGS`);
  }
  assert.deepEqual(settingEntries().map((e) => e.key), Object.keys(DEFAULT_SETTINGS));
  for (const e of settingEntries()) assert.ok(e.invalidates === null || (INVALIDATIONS as readonly string[]).includes(e.invalidates), e.key);
  // Drafting settings are read when drafting starts: no cached run work depends on them.
  assert.equal(settingEntries().find((e) => e.key === 'draft')?.invalidates, null);
});
