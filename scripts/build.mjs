// Bundles each entry point with esbuild. `vscode` (provided by the editor) and `onnxruntime-node`
// (native .node binaries esbuild cannot bundle; shipped in the VSIX as is) stay external.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// JSON Schemas of the ground-truth and --config files, from the zod schemas (media/schemas/, contributed
// through contributes.jsonValidation).
const schemas = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-schemas.ts'], { stdio: 'inherit' });
if (schemas.status !== 0) process.exit(schemas.status ?? 1);

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const external = ['vscode', 'onnxruntime-node'];

const nodeEntries = [
  { in: 'src/extension/main.ts', out: 'extension' },
  { in: 'src/cli/main.ts', out: 'cli' },
  { in: 'src/worker/main.ts', out: 'worker' },
  { in: 'src/core/index.ts', out: 'core' },
].filter((e) => existsSync(e.in));

const builds = [
  {
    entryPoints: nodeEntries,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outdir: 'dist',
    external,
    // jsonc-parser's `main` is a UMD wrapper whose inner require() calls esbuild cannot follow: bundle its ESM build.
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    // ESM-only dependencies (tinyglobby → fdir) call createRequire(import.meta.url), which is empty in a
    // CJS bundle: give them the bundle's own file URL.
    define: { 'import.meta.url': 'importMetaUrl' },
    inject: ['scripts/import-meta-url.ts'],
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
];
if (existsSync('webview/main.ts')) {
  builds.push({
    entryPoints: [{ in: 'webview/main.ts', out: 'webview' }],
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    outdir: 'dist',
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
  });
}

if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
