/**
 * Provenance of drafted questions: the endpoint as written into the ground truth (credentials
 * redacted) and stable ids.
 */
import { createHash } from 'node:crypto';

const SECRET_PARAM = /key|token|secret|password|passwd|signature|sig|auth/i;

/**
 * `endpoint` with credentials removed: `user:password@` becomes `***@`, and the value of every query
 * parameter whose name looks like a credential (key, token, secret, password, signature, auth) becomes
 * `***`. A string that is not a URL is replaced by `(not a URL)`, so nothing unparsed is written.
 */
export function redactEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return '(not a URL)';
  }
  if (url.username || url.password) {
    url.username = '***';
    url.password = '';
  }
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.set(name, '***');
  return url.toString().replace(/%2A%2A%2A/g, '***');
}

/**
 * A draft's id: `draft-` + the first 8 hex digits of SHA-256 over source, passage offsets and the
 * question text — the same draft gets the same id; `-2`, `-3`… are appended when `taken` has it.
 */
export function draftId(source: string, start: number, end: number, question: string, taken: ReadonlySet<string>): string {
  const base = `draft-${createHash('sha256').update(`${source}\0${start}\0${end}\0${question}`).digest('hex').slice(0, 8)}`;
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
  return id;
}
