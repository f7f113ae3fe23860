// Bundles every test/integration/suites/*.test.ts file, in file-name order, into one CJS module whose
// `run()` is ./harness.ts (the extensionTestsPath contract), with the options of the dist bundles.
// Used by test/e2e/scenarios/00-in-host.mjs, and by test/unit/scripts/in-host-bundle.test.ts, which
// loads the bundle outside VS Code so an import-time failure is caught by `npm test`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { nodeBundleOptions } from '../../scripts/esbuild-node.mjs';

const here = join(fileURLToPath(import.meta.url), '..');

/** Writes the in-host bundle to `outfile`; returns the suite file names in the order they run. */
export async function bundleInHostSuites(outfile) {
  const files = readdirSync(join(here, 'suites')).filter((f) => f.endsWith('.test.ts')).sort();
  await esbuild.build({
    stdin: { contents: `${files.map((f) => `import './suites/${f}';`).join('\n')}\nexport { run } from './harness';\n`, resolveDir: here, loader: 'ts', sourcefile: 'in-host-entry.ts' },
    ...nodeBundleOptions, outfile, logLevel: 'warning',
  });
  return files;
}
