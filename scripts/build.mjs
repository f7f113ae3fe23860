// Bundles each entry point with esbuild (Node options in ./esbuild-node.mjs: `vscode` and
// `onnxruntime-node` stay external; onnxruntime-node is shipped in the VSIX as is).
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { nodeBundleOptions } from './esbuild-node.mjs';

// JSON Schemas of the ground-truth and --config files, from the zod schemas (media/schemas/, contributed
// through contributes.jsonValidation).
const schemas = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-schemas.ts'], { stdio: 'inherit' });
if (schemas.status !== 0) process.exit(schemas.status ?? 1);

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const nodeEntries = [
  { in: 'src/extension/main.ts', out: 'extension' },
  { in: 'src/cli/main.ts', out: 'cli' },
  { in: 'src/worker/main.ts', out: 'worker' },
  { in: 'src/worker/chunkerThread.ts', out: 'chunker-thread' },
  { in: 'src/core/index.ts', out: 'core' },
].filter((e) => existsSync(e.in));

const builds = [
  {
    ...nodeBundleOptions,
    entryPoints: nodeEntries,
    outdir: 'dist',
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
