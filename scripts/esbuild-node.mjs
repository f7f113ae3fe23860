// The esbuild options every Node bundle of Spanproof needs (dist/*.js from scripts/build.mjs and the
// in-host test bundle of test/e2e/scenarios/00-in-host.mjs), defined once so the two cannot drift.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(fileURLToPath(import.meta.url), '..', '..');

/** Options for a CJS Node 20 bundle: `vscode` (provided by the editor) and `onnxruntime-node` (native .node binaries) stay external. */
export const nodeBundleOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode', 'onnxruntime-node'],
  // jsonc-parser's `main` is a UMD wrapper whose inner require() calls esbuild cannot follow: bundle its ESM build.
  alias: { 'jsonc-parser': join(repo, 'node_modules', 'jsonc-parser', 'lib', 'esm', 'main.js') },
  // ESM-only dependencies (tinyglobby → fdir) call createRequire(import.meta.url), which is empty in a
  // CJS bundle: give them the bundle's own file URL.
  define: { 'import.meta.url': 'importMetaUrl' },
  inject: [join(repo, 'scripts', 'import-meta-url.ts')],
};
