/**
 * Redaction of secrets in anything Spanproof writes (ledgers, reports, results.json, error messages,
 * logs): the `user:password@` part of a URL, the values of key-like query parameters (`api-key`,
 * `key`, `token`, `sig`, …), `Bearer …` tokens, `sk-…` keys, and any secret value the caller names
 * (the API key in use). Redacted parts become `***`; the rest of the URL stays readable so the user
 * still sees which endpoint was meant.
 */

/** Query parameter names whose values are secrets (Azure SAS `sig`, `api-key`, `access_token`, …). */
const SECRET_PARAM = /^(api[-_]?key|key|token|access[-_]?token|secret|client[-_]?secret|sig|signature|password|pass|auth|code)$/i;

/**
 * `url` with credentials and key-like query values replaced by `***`
 * (`https://u:p@h/v1?api-key=x` → `https://***@h/v1?api-key=***`). Text that is not a URL is
 * returned through {@link redactText}.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return redactText(url);
  }
  if (!/^https?:$/.test(u.protocol)) return redactText(url);
  let changed = false;
  if (u.username || u.password) {
    u.username = '***';
    u.password = '';
    changed = true;
  }
  for (const k of [...u.searchParams.keys()]) {
    if (SECRET_PARAM.test(k)) {
      u.searchParams.set(k, '***');
      changed = true;
    }
  }
  if (!changed) return url;
  return u.toString().replace(/%2A%2A%2A/g, '***');
}

/**
 * `text` with every embedded URL's credentials and key-like query values, `Bearer` tokens, `sk-…` keys
 * and each of `secrets` (exact values, ≥ 4 characters) replaced by `***`. Linear in the text length.
 */
export function redactText(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text
    .replace(/\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s/@?#'"<>]{1,256}@/gi, '$1***@')
    .replace(/([?&](?:api[-_]?key|key|token|access[-_]?token|secret|client[-_]?secret|sig|signature|password|pass|auth|code)=)[^&\s#'"<>]+/gi, '$1***')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 ***')
    .replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out;
}

/**
 * The origin of `url` (`scheme://host[:port]`, no credentials, path or query) — how endpoints are
 * named to the user and how secrets are tied to endpoints. Throws TypeError when `url` is not a URL.
 */
export function originOf(url: string): string {
  return new URL(url).origin;
}
