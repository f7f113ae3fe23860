// Writes the settings schema's VS Code view (src/core/settings/contributes.ts) into package.json —
// `contributes.configuration` and `capabilities.untrustedWorkspaces.restrictedConfigurations` — and
// the English of its `%config.…%` strings into package.nls.json (every other key there is kept).
// Run after changing src/core/settings/schema.ts: `npm run gen:settings`. The unit test
// test/unit/core/settings/contributes.test.ts fails while either file is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { vscodeContributes } from '../src/core/settings';

const c = vscodeContributes();

function update(name: string, edit: (json: Record<string, unknown>) => Record<string, unknown>, what: string): void {
  const file = path.resolve(__dirname, '..', name);
  const before = readFileSync(file, 'utf8');
  const after = `${JSON.stringify(edit(JSON.parse(before) as Record<string, unknown>), null, 2)}\n`;
  if (after === before) console.log(`${name}: ${what} already up to date`);
  else {
    writeFileSync(file, after);
    console.log(`${name}: ${what} written from src/core/settings/schema.ts`);
  }
}

update('package.json', (json) => {
  const pkg = json as { contributes: Record<string, unknown>; capabilities: { untrustedWorkspaces: Record<string, unknown> } };
  pkg.contributes.configuration = c.configuration;
  pkg.capabilities.untrustedWorkspaces.restrictedConfigurations = c.restrictedConfigurations;
  return pkg;
}, 'contributes.configuration and restrictedConfigurations');

update('package.nls.json', (nls) => ({ ...Object.fromEntries(Object.entries(nls).filter(([k]) => !k.startsWith('config.'))), ...c.nls }), 'the settings\' texts (config.*)');
