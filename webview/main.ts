/**
 * Spanproof results panel (runs in the webview): components from @vscode-elements/elements (imported
 * one by one), the `<sp-results>` shell on lit, charts from Chart.js. State lives in one store
 * (state.ts); actions.ts changes it and talks to the host through the typed protocol (ipc.ts); the
 * tabs are modules listed in tabs/registry.ts.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import './chart';
import { Actions } from './actions';
import { SpResults } from './app';
import { restoredState } from './ipc';
import { Store } from './store';
import { initialState, type PanelState, type UiState } from './state';

const store = new Store<PanelState>(initialState(restoredState<UiState>()));
const act = new Actions(store);
const el = new SpResults();
el.store = store;
el.act = act;
document.getElementById('app')!.replaceChildren(el);

// Charts read theme colours: recompute them when the theme changes (body class: vscode-light / vscode-dark / vscode-high-contrast).
new MutationObserver(() => act.themeChanged()).observe(document.body, { attributes: true, attributeFilter: ['class'] });

void act.start();
