/**
 * The tabs of the results panel, in order. A tab is one module exporting a `TabModule` plus one entry
 * here: the shell (app.ts) renders the tab list and the active tab from this array, actions.ts sends
 * the requests its `needs` names, and `vscode.setState` keeps which one is open.
 *
 * Adding a tab (e.g. an injection-exposure view): write `webview/tabs/<name>.ts` exporting
 * `export const fooTab: TabModule = { id: 'foo', label: 'Foo', needs, render }` and add `fooTab`
 * below. If the host must open the panel on it (`showRun` with `tab`), add its id to `ResultsTab` in
 * src/shared/protocol.ts; if it needs a new request, add the method to `WebviewMethods` there and its
 * handler to src/extension/panelHandlers.ts (the compiler asks for both).
 */
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions';
import type { RunModel } from '../model';
import type { Need, PanelState } from '../state';
import { answersTab } from './answers';
import { biasTab } from './bias';
import { causesTab } from './causes';
import { historyTab } from './history';
import { injectionTab } from './injection';
import { matrixTab } from './matrix';
import { questionTab } from './question';
import { rankingTab } from './ranking';
import { tauTab } from './tau';

export interface TabContext {
  s: PanelState;
  /** The open run's model (null: no run open, or it has no results). */
  m: RunModel | null;
  /** State changes and host commands, for event handlers (never call them while rendering). */
  act: Actions;
}

export interface TabModule {
  /** Stable id: `data-tab`, persisted state, `showRun`'s `tab`. */
  id: string;
  label: string;
  /** The requests the tab needs to show the current state; sent by actions.ts, results in `s.res` (see `resource()`). */
  needs?(s: PanelState, m: RunModel | null): Need[];
  /** Pure: reads `ctx`, returns a template; lit applies the difference to the page. */
  render(ctx: TabContext): TemplateResult;
}

export const TABS: readonly TabModule[] = [rankingTab, matrixTab, causesTab, tauTab, biasTab, injectionTab, answersTab, questionTab, historyTab];

export function tabById(id: string): TabModule | undefined {
  return TABS.find((t) => t.id === id);
}
