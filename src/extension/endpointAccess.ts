/**
 * Secrets tied to their endpoint (#16 item 2) — the one gate every VS Code feature that sends data
 * to an endpoint goes through (answers and judges, model downloads and endpoint models, question
 * drafting, safety judges): {@link EndpointAccess.authorize} is called before the first request and
 * returns the endpoint with the API key stored for **its origin**, or null when the user declined
 * (then nothing may be sent).
 *
 * Rules:
 * - API keys live in SecretStorage under `spanproof.apiKey:<origin>` (`https://api.openai.com`), one
 *   per endpoint origin; a key stored for one origin is never sent to another.
 * - The key that older versions stored without an endpoint (`spanproof.judge.apiKey`) is sent to an
 *   origin only after the user says so (modal), and is then stored for that origin and removed.
 * - An endpoint set in the **workspace** (`.vscode/settings.json`, a `.code-workspace` file, a folder
 *   setting) — which anyone who shares the repository can write — needs a confirmation the first time
 *   it is used, and again whenever its value changes. The answer is remembered in the extension's
 *   global state (user-level: a repository cannot pre-approve itself). User-level settings need none.
 *
 * Pure logic over injected SecretStorage / Memento / prompt, so it is unit-tested without VS Code;
 * ./endpoints.ts wires it to VS Code.
 */
import { originOf, redactUrl } from '../core/net';

/** Where an endpoint setting's value comes from (VS Code `inspect`): only `user` needs no confirmation. */
export type SettingScope = 'user' | 'workspace' | 'folder' | 'default';

/** An endpoint setting as read for one workspace folder. */
export interface EndpointSetting {
  /** The setting key without `spanproof.` (e.g. `judge.endpoint`), for messages and the confirmation record. */
  key: string;
  /** Its effective value (a base URL), '' when unset. */
  value: string;
  scope: SettingScope;
  /** The workspace folder's URI (confirmations are per folder). */
  folder: string;
}

export interface EndpointAccessDeps {
  secrets: { get(key: string): Thenable<string | undefined>; store(key: string, value: string): Thenable<void>; delete(key: string): Thenable<void> };
  /** User-level state (VS Code `ExtensionContext.globalState`). */
  state: { get<T>(key: string): T | undefined; update(key: string, value: unknown): Thenable<void> };
  /** A modal question; resolves with the chosen button, undefined when dismissed. */
  ask(message: string, detail: string, ...buttons: string[]): Thenable<string | undefined>;
}

/** The endpoint a feature may call now, with the key of its origin (undefined: send none). */
export interface AuthorizedEndpoint {
  endpoint: string;
  origin: string;
  apiKey?: string;
}

/** SecretStorage key of the key stored before keys were tied to endpoints. */
export const LEGACY_SECRET = 'spanproof.judge.apiKey';
const CONFIRMED = 'spanproof.confirmedWorkspaceEndpoints';

/** SecretStorage key of the API key for `origin`. */
export function secretKeyFor(origin: string): string {
  return `spanproof.apiKey:${origin}`;
}

/** The origin of `endpoint`, or null when it is not an http(s) URL. */
export function endpointOrigin(endpoint: string): string | null {
  try {
    const o = originOf(endpoint);
    return /^https?:/.test(o) ? o : null;
  } catch {
    return null;
  }
}

export class EndpointAccess {
  /** The injected SecretStorage, state and prompt (in-host tests replace `ask`). */
  constructor(readonly deps: EndpointAccessDeps) {}

  /** The key stored for `endpoint`'s origin (never another origin's; no prompt). */
  async keyFor(endpoint: string): Promise<string | undefined> {
    const origin = endpointOrigin(endpoint);
    return origin ? this.deps.secrets.get(secretKeyFor(origin)) : undefined;
  }

  /** Stores `key` for `endpoint`'s origin; '' removes it. Throws TypeError when `endpoint` is not an http(s) URL. */
  async storeKey(endpoint: string, key: string): Promise<string> {
    const origin = endpointOrigin(endpoint);
    if (!origin) throw new TypeError(`"${redactUrl(endpoint)}" is not an http(s) URL`);
    if (key === '') await this.deps.secrets.delete(secretKeyFor(origin));
    else await this.deps.secrets.store(secretKeyFor(origin), key);
    return origin;
  }

  /**
   * Before the first request of `purpose` (e.g. "answers: questions, passages and answers"): confirms a
   * workspace-level endpoint the first time (and after it changed), then finds the key for its origin,
   * asking before the legacy endpoint-less key is sent anywhere. Returns null when the setting is
   * empty or not a URL, or when the user declined — nothing may be sent then.
   */
  async authorize(s: EndpointSetting, purpose: string): Promise<AuthorizedEndpoint | null> {
    const origin = endpointOrigin(s.value);
    if (!origin) return null;
    if (!(await this.confirmWorkspaceValue(s, origin, purpose))) return null;
    let apiKey = await this.deps.secrets.get(secretKeyFor(origin));
    if (apiKey === undefined) {
      const legacy = await this.deps.secrets.get(LEGACY_SECRET);
      if (legacy) {
        const use = `Send the key to ${origin}`;
        const without = 'Continue without a key';
        const pick = await this.deps.ask(
          `Spanproof: send your stored API key to ${origin}?`,
          `The API key stored by an earlier Spanproof is not tied to an endpoint. ${purpose} will go to ${redactUrl(s.value)} (setting spanproof.${s.key}). Send that key there? It is then stored for ${origin} only; other endpoints get their own key (Spanproof: Set Judge API Key… / Set Model Endpoint API Key…).`,
          use,
          without,
        );
        if (pick === undefined) return null;
        if (pick === use) {
          await this.deps.secrets.store(secretKeyFor(origin), legacy);
          await this.deps.secrets.delete(LEGACY_SECRET);
          apiKey = legacy;
        }
      }
    }
    return { endpoint: s.value, origin, ...(apiKey ? { apiKey } : {}) };
  }

  /** True when `s` is a user setting, or a workspace value the user confirmed (now or before). */
  private async confirmWorkspaceValue(s: EndpointSetting, origin: string, purpose: string): Promise<boolean> {
    if (s.scope === 'user' || s.scope === 'default') return true;
    const confirmed = this.deps.state.get<Record<string, string>>(CONFIRMED) ?? {};
    const id = `${s.folder}\u0000${s.key}`;
    if (confirmed[id] === s.value) return true;
    const allow = `Allow ${origin}`;
    const where = s.scope === 'folder' ? 'this folder\'s settings' : 'this workspace\'s settings (.vscode/settings.json or the .code-workspace file)';
    const pick = await this.deps.ask(
      `Spanproof: send data to ${origin}?`,
      `${where[0].toUpperCase()}${where.slice(1)} set spanproof.${s.key} to ${redactUrl(s.value)}. Anyone who can change this repository can change that setting. Spanproof would send ${purpose} there, with the API key stored for ${origin} if there is one. Allow it for this workspace? You are asked again if the setting changes.`,
      allow,
    );
    if (pick !== allow) return false;
    await this.deps.state.update(CONFIRMED, { ...confirmed, [id]: s.value });
    return true;
  }
}
