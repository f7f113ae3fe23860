// Writes the settings schema's VS Code view (src/core/settings/contributes.ts) into package.json:
// `contributes.configuration` and `capabilities.untrustedWorkspaces.restrictedConfigurations`.
// Run after changing src/core/settings/schema.ts: `npm run gen:settings`. The unit test
// test/unit/core/settings/contributes.test.ts fails while package.json is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { vscodeContributes } from '../src/core/settings';

const file = path.resolve(__dirname, '..', 'package.json');
const before = readFileSync(file, 'utf8');
const pkg = JSON.parse(before) as { contributes: Record<string, unknown>; capabilities: { untrustedWorkspaces: Record<string, unknown> } };
const c = vscodeContributes();
pkg.contributes.configuration = c.configuration;
pkg.capabilities.untrustedWorkspaces.restrictedConfigurations = c.restrictedConfigurations;
const after = `${JSON.stringify(pkg, null, 2)}\n`;
if (after === before) console.log('package.json: settings already up to date');
else {
  writeFileSync(file, after);
  console.log('package.json: contributes.configuration and restrictedConfigurations written from src/core/settings/schema.ts');
}
