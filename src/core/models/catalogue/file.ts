/** Reading a catalogue file (`--catalogue FILE`): the built-in catalogue's shape, validated with zod. */
import { readFileSync } from 'node:fs';
import { SpanproofError } from '../../errors';
import { jsonParseError } from '../../files/jsonText';
import { catalogueSchema, type CatalogueEntry } from './entries';

/**
 * Parses and validates `file` (a JSON array of catalogue entries).
 * @throws SpanproofError('not-found') when it does not exist; SpanproofError('bad-input') naming the
 *   file, the JSON path of the first wrong value and what is expected.
 */
export function readCatalogueFile(file: string): CatalogueEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new SpanproofError(missing ? 'not-found' : 'bad-input', missing ? 'catalogue file not found.' : `cannot read the catalogue file (${(e as NodeJS.ErrnoException).code ?? String(e)}).`, { file, fix: missing ? 'check the --catalogue path.' : 'check that the path is a readable file.' });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw jsonParseError(text, file, 'fix the JSON syntax at that line and column.', e);
  }
  const r = catalogueSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(root)';
    throw new SpanproofError('bad-input', `invalid catalogue entry: ${issue.message}.`, { file, field, fix: 'each entry needs name, kind (embedder | cross-encoder), repo (owner/name), revision (40 hex or null), revisionSource, licence, description and files [{path, sha256 (64 hex or null), size (bytes or null), source}]; see docs/models.md "Model catalogue".' });
  }
  const names = new Set<string>();
  for (const e of r.data) {
    if (names.has(e.name.toLowerCase())) throw new SpanproofError('bad-input', `the name "${e.name}" appears twice.`, { file, fix: 'give every entry its own name.' });
    names.add(e.name.toLowerCase());
  }
  return r.data;
}
