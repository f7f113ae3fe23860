/**
 * Endpoint models in a VS Code run (SPEC §5.3, #16 item 2): before a run starts, the endpoint models
 * the grid loads (`endpoint:<model>` in `embedders`/`embeddingModel`, or as `rerankerModel` when a
 * config reranks — core `gridModelNeeds`) go through the one endpoint gate, `EndpointAccess.authorize`
 * on `modelEndpoint.url`, which confirms a workspace-level endpoint and returns the API key stored for
 * its origin. The key travels in memory in the run request (`GridRunParams.apiKey`) to the worker; it is
 * never written into run files, logs or the ledger. Declined, or no usable endpoint: no run, nothing sent.
 *
 * Pure over an injected `authorize` (no vscode import), so it is unit-tested; ./runner.ts calls it.
 */
import { endpointModels, gridModelNeeds } from '../core/grid/models';
import { SpanproofError } from '../core/errors';
import { redactUrl } from '../core/net';
import type { RunSettings } from '../core/settings';
import { endpointOrigin, type AuthorizedEndpoint } from './endpointAccess';

/** What the run may do: start (with the endpoint's key, if one is stored), or not start (and why, for the user). */
export type RunModelAccess = { ok: true; apiKey?: string } | { ok: false; message: string };

/** The model settings a run's authorization reads. */
export type RunModelSettings = Pick<RunSettings, 'embedders' | 'embeddingModel' | 'rerankerModel' | 'rerank' | 'modelEndpoint'>;

/** What is sent to an endpoint model, as the confirmation names it. */
export const MODEL_ENDPOINT_PURPOSE = 'passages of your documents and your questions';

/**
 * Authorizes the endpoint models of a run of `settings`: no question when the grid uses none; else
 * `authorize(purpose)` (EndpointAccess.authorize of `modelEndpoint.url`) decides. Never throws: a bad
 * model setting (an endpoint model without an endpoint, a catalogue model not downloaded) is returned
 * as a message.
 */
export async function authorizeRunModels(settings: RunModelSettings, authorize: (purpose: string) => Promise<AuthorizedEndpoint | null>, modelStore?: string): Promise<RunModelAccess> {
  let sent: string[];
  try {
    sent = endpointModels(settings, gridModelNeeds(settings), modelStore);
  } catch (e) {
    if (e instanceof SpanproofError) return { ok: false, message: `Spanproof: evaluation not started — ${e.message}` };
    throw e;
  }
  if (sent.length === 0) return { ok: true };
  const url = settings.modelEndpoint.url;
  const what = `the ${sent.join(' and the ')}`;
  if (!endpointOrigin(url)) {
    return { ok: false, message: `Spanproof: evaluation not started — ${what} ${sent.length > 1 ? 'are' : 'is'} served at spanproof.modelEndpoint.url, and "${redactUrl(url)}" is not an http(s) URL. Nothing was sent.` };
  }
  const auth = await authorize(`${MODEL_ENDPOINT_PURPOSE} (for ${what})`);
  if (!auth) {
    return { ok: false, message: `Spanproof: evaluation not started — ${what} would send ${MODEL_ENDPOINT_PURPOSE} to ${endpointOrigin(url)}, and that was not allowed. Nothing was sent. Allow it when asked, or use local models (Spanproof: Select Embedding Model…, spanproof.rerankerModel).` };
  }
  return auth.apiKey ? { ok: true, apiKey: auth.apiKey } : { ok: true };
}
