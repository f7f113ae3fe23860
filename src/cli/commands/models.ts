/**
 * `spanproof models list | pull <name> | remove <name>` (SPEC §5.3 "Download catalogue"): the curated
 * ONNX models, downloaded only on this explicit request from the Hugging Face hub (`HF_ENDPOINT` for a
 * mirror; `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` honoured) into the per-user model folder
 * (`SPANPROOF_MODELS_DIR` or `--models-dir`). pull prints the size before it starts, a progress bar on
 * a TTY (stderr), and resumes an interrupted download; Ctrl-C cancels and keeps what arrived.
 * Exit codes: 0 done; 2 bad input (unknown name, entry without pins, download failed — the message
 * says what to do); 130 cancelled with SIGINT.
 */
import type { Command } from 'commander';
import { SpanproofError } from '../../core/errors';
import { CATALOGUE, entryBytes, findCatalogueEntry, hubUrl, mb, missingPins, modelState, modelStoreDir, pullModel, readCatalogueFile, redactUrl, removeModel, type CatalogueEntry } from '../../core/models/catalogue';
import type { SetExit } from './index';
import { EXIT } from '../exit';
import { onCancelSignal } from '../cancel';

interface ModelsOptions {
  catalogue?: string;
  modelsDir?: string;
  json?: boolean;
}

function context(o: ModelsOptions): { catalogue: readonly CatalogueEntry[]; store: string } {
  return { catalogue: o.catalogue ? readCatalogueFile(o.catalogue) : CATALOGUE, store: o.modelsDir ?? modelStoreDir() };
}

function entryOrThrow(name: string, catalogue: readonly CatalogueEntry[]): CatalogueEntry {
  const e = findCatalogueEntry(name, catalogue);
  if (!e) throw new SpanproofError('bad-input', `"${name}" is not in the catalogue (known: ${catalogue.map((c) => c.name).join(', ')}).`, { fix: 'spanproof models list shows the catalogue; a model of your own is a folder (docs/models.md).' });
  return e;
}

/** One row of `models list`: what a user needs to decide (status, size) and where it would go. */
export function listRows(catalogue: readonly CatalogueEntry[], store: string) {
  return catalogue.map((e) => {
    const st = modelState(e, store);
    const missing = missingPins(e);
    const status = st.state === 'pulled' ? (st.current ? 'downloaded' : `downloaded (older revision ${st.manifest.revision.slice(0, 7)}; pull updates it)`) : st.state === 'partial' ? `partly downloaded (${mb(st.bytes)}; pull resumes)` : missing.length ? `cannot be pulled (not pinned: ${missing.join(', ')})` : 'not downloaded';
    return { name: e.name, kind: e.kind, repo: e.repo, revision: e.revision, bytes: e.files.some((f) => f.size === null) ? null : entryBytes(e), status, dir: st.state === 'pulled' ? st.dir : null, licence: e.licence, description: e.description };
  });
}

function progressBar(): { update(done: number, total: number, file: string): void; end(): void } {
  const tty = process.stderr.isTTY;
  let last = 0;
  return {
    update(done, total, file) {
      const f = total > 0 ? done / total : 1;
      if (tty) process.stderr.write(`\r[${'#'.repeat(Math.round(f * 30)).padEnd(30, '.')}] ${String(Math.round(f * 100)).padStart(3)}% ${mb(done)} / ${mb(total)} ${file.padEnd(24).slice(0, 24)}`);
      else if (Date.now() - last > 2000 || done === total) {
        last = Date.now();
        process.stderr.write(`progress ${mb(done)} / ${mb(total)} ${file}\n`);
      }
    },
    end() {
      if (tty) process.stderr.write('\n');
    },
  };
}

async function pull(name: string, o: ModelsOptions, setExit: SetExit): Promise<void> {
  const { catalogue, store } = context(o);
  const e = entryOrThrow(name, catalogue);
  const missing = missingPins(e);
  if (missing.length === 0) {
    const st = modelState(e, store);
    const resume = st.state === 'partial' ? ` (${mb(st.bytes)} already here, resuming)` : '';
    if (!(st.state === 'pulled' && st.current)) process.stderr.write(`${e.name}: ${mb(entryBytes(e))} in ${e.files.length} files from ${redactUrl(hubUrl())}/${e.repo} @ ${e.revision!.slice(0, 12)}${resume} → ${store}\n`);
  }
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  const offSigint = onCancelSignal(onSigint); // Ctrl-C and SIGTERM alike (../cancel.ts)
  const bar = progressBar();
  try {
    const dir = await pullModel(e, { store, signal: ac.signal, onProgress: (p) => bar.update(p.doneBytes, p.totalBytes, p.file) });
    bar.end();
    if (o.json) process.stdout.write(JSON.stringify({ name: e.name, dir, revision: e.revision }) + '\n');
    else {
      // Built-in catalogue names resolve by name; an entry of a --catalogue file of your own by its folder.
      const ref = findCatalogueEntry(e.name) === e ? e.name : dir;
      process.stdout.write(`${e.name} is ready in ${dir}\nUse it: spanproof run --${e.kind === 'embedder' ? 'embedders' : 'reranker'} ${JSON.stringify(ref)}   (setting "${e.kind === 'embedder' ? 'embeddingModel' : 'rerankerModel'}")\n`);
    }
  } catch (err) {
    bar.end();
    if (err instanceof SpanproofError && err.code === 'cancelled') {
      process.stderr.write(`spanproof: ${err.message}\n`);
      setExit(EXIT.cancelled);
      return;
    }
    throw err;
  } finally {
    offSigint();
  }
}

export function register(program: Command, setExit: SetExit): void {
  const models = program.command('models').description('The model catalogue: list, download (pull) and remove small ONNX embedders and cross-encoders from the Hugging Face hub.');
  const common = (c: Command) =>
    c
      .option('--catalogue <file>', 'a catalogue JSON file of your own instead of the built-in one (same shape; see docs/models.md)')
      .option('--models-dir <dir>', 'the model folder (default $SPANPROOF_MODELS_DIR, else the per-user cache dir /models)')
      .option('--json', 'print JSON on stdout');
  common(models.command('list').description('Show the catalogue: name, kind, download size, whether it is downloaded.')).action((o: ModelsOptions) => {
    const { catalogue, store } = context(o);
    const rows = listRows(catalogue, store);
    if (o.json) {
      process.stdout.write(JSON.stringify({ store, hub: redactUrl(hubUrl()), models: rows }, null, 2) + '\n');
      return;
    }
    const w = Math.max(...rows.map((r) => r.name.length), 4);
    process.stdout.write(`Model folder: ${store}\n\n`);
    for (const r of rows) process.stdout.write(`${r.name.padEnd(w)}  ${r.kind.padEnd(13)}  ${(r.bytes === null ? '?' : mb(r.bytes)).padStart(9)}  ${r.status}\n${' '.repeat(w)}  ${r.description} (${r.repo}, ${r.licence})\n`);
    process.stdout.write('\nDownload one with: spanproof models pull <name>   (nothing is downloaded otherwise)\n');
  });
  common(models.command('pull').argument('<name>', 'catalogue name, e.g. all-MiniLM-L6-v2').description('Download a catalogue model (verified by SHA-256; resumes an interrupted download).')).action((name: string, o: ModelsOptions) => pull(name, o, setExit));
  common(models.command('remove').argument('<name>', 'a downloaded model').description('Delete a downloaded model (and any partial download of it).')).action((name: string, o: ModelsOptions) => {
    const { catalogue, store } = context(o);
    const r = removeModel(name, store, catalogue);
    if (o.json) process.stdout.write(JSON.stringify(r) + '\n');
    else process.stdout.write(`removed ${r.dir} (${mb(r.bytes)})\n`);
  });
}
