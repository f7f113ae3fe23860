// Every cause of src/core (CAUSES, the one list) has a colour in each of the four themes of
// media/results.css and a text class, so a cause added in core (e.g. passage-split, issue #18)
// never falls back to another cause's colour in the results panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAUSES } from '../../../src/core/types';
import { REPO } from '../../helpers/paths';

test('media/results.css colours every cause in every theme and has its .cause-<name> class', () => {
  const css = readFileSync(join(REPO, 'media', 'results.css'), 'utf8');
  const themes = ['body {', 'body.vscode-light {', 'body.vscode-high-contrast {', 'body.vscode-high-contrast-light {'];
  for (const theme of themes) {
    const line = css.split('\n').find((l) => l.startsWith(theme) && l.includes('--sp-cause-'));
    assert.ok(line, `a ${theme} rule`);
    for (const c of CAUSES) assert.match(line!, new RegExp(`--sp-cause-${c}: #[0-9a-f]{6}`), `${theme} colours ${c}`);
  }
  for (const c of CAUSES) assert.ok(css.includes(`.cause-${c} { color: var(--sp-cause-${c}); }`), `.cause-${c} class`);
});
