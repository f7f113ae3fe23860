// esbuild inject shim: in the CJS bundles, `import.meta.url` (used by ESM-only dependencies such as
// tinyglobby → fdir for createRequire) is replaced by the bundle file's own URL.
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
