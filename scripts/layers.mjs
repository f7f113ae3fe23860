// The layer rules of Spanproof (docs/architecture.md), enforced by ESLint in `npm test` through
// eslint-plugin-import-x `no-restricted-paths` (upward imports) and `no-cycle` (runtime cycles), and
// typescript-eslint `no-restricted-imports` (src/shared takes only types from src/core).
//
//   webview/            the results panel's browser bundle        may import src/shared, src/core
//   src/extension/      VS Code host glue                          may import src/worker, src/shared, src/core
//   src/cli/            the command line                           may import src/worker, src/shared, src/core
//   src/worker/         the grid worker and its host-side client   may import src/shared, src/core
//   src/shared/         protocol types between host, worker, webview   may import types from src/core
//   src/core/           pure TypeScript, no vscode                 imports nothing above it
//
// Each rule's message starts with its name in brackets, so a failing lint says which rule broke.

const above = {
  core: ['./src/shared', './src/worker', './src/cli', './src/extension', './webview'],
  shared: ['./src/worker', './src/cli', './src/extension', './webview'],
  worker: ['./src/cli', './src/extension', './webview'],
};

/** Zones of import-x/no-restricted-paths: a file under `target` may not import from `from`. */
export const LAYER_ZONES = [
  {
    target: './src/core',
    from: above.core,
    message: '[layers/core-at-bottom] src/core is the bottom layer and imports nothing from src/shared, src/worker, src/cli, src/extension or webview. Move the type or function down into src/core (the layer above then imports it from there).',
  },
  {
    target: './src/shared',
    from: above.shared,
    message: '[layers/shared-below-hosts] src/shared (protocol types) imports only from src/core, never from the worker, the CLI, the extension or the webview.',
  },
  {
    target: './src/worker',
    from: above.worker,
    message: '[layers/worker-below-hosts] src/worker serves the CLI and the extension and imports neither of them.',
  },
  {
    target: './src/cli',
    from: ['./src/extension', './webview'],
    message: '[layers/hosts-apart] src/cli does not import the VS Code extension or the webview; share code through src/core or src/worker.',
  },
  {
    target: './src/extension',
    from: ['./src/cli', './webview'],
    message: '[layers/hosts-apart] src/extension does not import the CLI or the webview bundle; share code through src/core or src/worker.',
  },
  {
    target: './webview',
    from: ['./src/extension', './src/cli', './src/worker'],
    message: '[layers/webview-is-a-browser-bundle] webview/ runs in the browser: it talks to the host through messages (src/shared/protocol.ts), never by importing host code.',
  },
];

/** src/shared is bundled into the webview: from src/core it takes types only (erased at build time). */
export const SHARED_TYPES_ONLY = {
  patterns: [{
    group: ['**/core', '**/core/**'],
    allowTypeImports: true,
    message: '[layers/shared-types-only] src/shared imports only types from src/core (`import type`); a value would pull Node code into the webview bundle.',
  }],
};
