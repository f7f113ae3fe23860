/**
 * The ground truth of one workspace folder as the editor sees it: the file on disk, the in-memory
 * version (with offsets that follow live edits), and its resolution against the current text of every
 * referenced document — the open editor's text when the document is open, the file otherwise.
 *
 * Disk synchronisation is `GroundTruthSync` (gtSync.ts, vscode-free, unit-tested): one serialised queue for
 * reloads and writes; every write re-reads the disk and three-way-merges a concurrent edit by question id
 * (`mergeGroundTruth`) against the text it last read or wrote, and a real conflict is refused with a
 * message and nothing written (SPEC §16). Watcher events for our own writes are recognised by content.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { normaliseSource, resolveGroundTruth, type GroundTruthFile, type Resolution } from '../core/groundtruth';
import { globMatcher, globProblem, readDocumentInside, type SkippedFile } from '../core/corpus';
import { groundTruthFileIn } from './confined';
import { SpanproofError } from '../core/errors';
import type { RunSettings } from '../core/settings';
import { GroundTruthSync, type WriteOutcome } from './gtSync';

export type { WriteOutcome } from './gtSync';

export class GroundTruthStore implements vscode.Disposable {
  resolution: Resolution | null = null;
  /** The file on disk and the in-memory version; `path` follows the settings. */
  private sync: GroundTruthSync;
  /** Texts of referenced documents that are not open in an editor, read from disk. */
  private diskTexts = new Map<string, string | undefined>();
  private skippedDocs = new Map<string, SkippedFile>(); // sources the decoder refused: stale as "source skipped: …"
  private isIncluded: (source: string) => boolean = () => true;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private settings: RunSettings,
  ) {
    this.sync = new GroundTruthSync(this.file);
    this.applySettings(settings);
  }

  get file(): string {
    return groundTruthFileIn(this.folder.uri.fsPath, this.settings.groundTruthPath).file;
  }

  /**
   * The ground-truth file for a read or write that does not go through this store (drafts, review, the
   * worker's run): {@link file} when inside the folder.
   * @throws SpanproofError('bad-input') when `spanproof.groundTruthPath` leaves the folder (#16 item 6).
   */
  confinedFile(): string {
    const refused = this.refused();
    if (refused) throw new SpanproofError('bad-input', refused, { field: 'spanproof.groundTruthPath', fix: 'set it to a path inside the workspace folder.' });
    return this.file;
  }

  /** Why the ground-truth path is refused (it leaves the folder, #16 item 6), checked again before every read and write; null when it is inside. */
  private refused(): string | null {
    return groundTruthFileIn(this.folder.uri.fsPath, this.settings.groundTruthPath).refused;
  }

  /** In-memory ground truth; null when the file does not exist yet (or is invalid or refused: see `loadError`). */
  get gt(): GroundTruthFile | null {
    return this.refused() ? null : this.sync.gt;
  }

  /** The file could not be parsed (its message names file and field), or its path leaves the folder. */
  get loadError(): string | null {
    return this.refused() ?? this.sync.loadError;
  }

  get settingsMinQuote(): number {
    return this.settings.minQuoteLength;
  }

  applySettings(settings: RunSettings): void {
    this.settings = settings;
    // a glob over the limits (globProblem) matches nothing here; a run reports it (parseRunSettings)
    const matcher = (globs: readonly string[]) => globMatcher(globs.filter((g) => globProblem(g) === null));
    const inc = matcher(settings.include);
    const exc = matcher(settings.exclude);
    this.isIncluded = (s) => inc(s) && !exc(s);
    // A different ground-truth path is a different file: start over from it on the next load.
    if (this.sync.file !== this.file) this.sync = new GroundTruthSync(this.file);
  }

  /** POSIX source path of `uri` relative to the folder, or undefined when outside it. */
  sourceOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    const rel = path.relative(this.folder.uri.fsPath, uri.fsPath);
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  uriOf(source: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder.uri, ...source.split('/'));
  }

  openDocument(source: string): vscode.TextDocument | undefined {
    const fsPath = this.uriOf(source).fsPath;
    return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === fsPath);
  }

  /** Current text of `source`: the open editor's text, else the file; undefined when not in the corpus. */
  textOf = (source: string): string | undefined => {
    if (!this.isIncluded(source)) return undefined;
    const doc = this.openDocument(source);
    if (doc) return doc.getText();
    return this.diskTexts.get(source);
  };

  /** (Re)read the ground-truth file (after any queued write) and the referenced documents, then resolve. */
  async load(): Promise<void> {
    if (this.refused()) {
      this.resolution = null;
      this.emitter.fire();
      return;
    }
    await this.sync.reload();
    await this.refreshDiskTexts();
    this.resolve();
  }

  private async refreshDiskTexts(only?: string): Promise<void> {
    const sources = new Set<string>();
    for (const q of this.gt?.questions ?? []) for (const e of q.evidence) { const n = normaliseSource(e.source); if (n !== undefined) sources.add(n); } // never read outside the folder
    for (const s of sources) {
      if (only !== undefined && s !== only) continue;
      if (only === undefined && this.diskTexts.has(s)) continue;
      // The CLI's rule: a link out of the folder is skipped as outside-root, never followed (#16 item 6).
      const d = readDocumentInside(this.folder.uri.fsPath, s);
      this.diskTexts.set(s, 'text' in d ? d.text : undefined);
      if ('text' in d) this.skippedDocs.delete(s); else if (d.reason !== 'unreadable') this.skippedDocs.set(s, d);
    }
  }

  /** A document changed on disk or was closed: forget the cached text of `source`. */
  async invalidateText(source: string): Promise<void> {
    this.diskTexts.delete(source);
    await this.refreshDiskTexts(source);
    this.resolve();
  }

  /**
   * Resolve the in-memory ground truth against current texts. Moved offsets are kept in memory
   * (so spans follow edits live) and written to disk by `saveMoved` when the document is saved.
   */
  resolve(): void {
    if (!this.gt) {
      this.resolution = null;
    } else {
      // One getText() per document per resolution, however many evidence items it holds.
      const memo = new Map<string, string | undefined>();
      const textOf = (source: string) => {
        if (!memo.has(source)) memo.set(source, this.textOf(source));
        return memo.get(source);
      };
      this.resolution = resolveGroundTruth(this.gt, textOf, { minQuoteLength: this.settings.minQuoteLength, maxQuoteLength: this.settings.maxQuoteLength, skipped: this.skippedDocs });
      if (this.resolution.changed) this.sync.gt = this.resolution.updated;
    }
    this.emitter.fire();
  }

  /** True when the in-memory version differs from the disk version. */
  get dirty(): boolean {
    return this.sync.dirty;
  }

  /** Apply `edit` to a copy of the ground truth (created when missing) and write it. */
  async mutate(edit: (gt: GroundTruthFile) => void): Promise<WriteOutcome> {
    if (this.loadError) {
      void vscode.window.showErrorMessage(`Spanproof: the ground-truth file is invalid, fix it first. ${this.loadError}`);
      return 'failed';
    }
    const next: GroundTruthFile = structuredClone(this.gt ?? { spanproof: 1, questions: [] });
    edit(next);
    this.sync.gt = next;
    this.resolve();
    return this.write();
  }

  /** Write moved offsets after the user saved a document (SPEC §3.2: offsets updated on save). */
  async saveMoved(): Promise<WriteOutcome> {
    if (!this.gt || !this.dirty) return 'unchanged';
    return this.write();
  }

  /** Write the in-memory version, merging a concurrent disk edit or refusing on conflict. Serialised. */
  async write(): Promise<WriteOutcome> {
    const refused = this.refused();
    if (refused) {
      void vscode.window.showErrorMessage(`Spanproof did not save the ground truth: ${refused}`);
      return 'failed';
    }
    const before = this.sync.gt;
    const r = await this.sync.write();
    if (r.outcome === 'conflict' && r.error !== undefined) {
      void vscode.window.showErrorMessage(
        `Spanproof did not save the ground truth: the file on disk changed and is now invalid (${r.error}). Fix it, then save again.`,
      );
    } else if (r.outcome === 'conflict') {
      // Not awaited: the refusal must not block the caller until the user reacts.
      void vscode.window
        .showWarningMessage(
          `Spanproof did not save the ground truth: ${path.basename(this.file)} was changed on disk and the same question(s) were edited here (${(r.conflicts ?? []).join(', ')}).`,
          'Reload from Disk',
          'Open File',
        )
        .then(async (choice) => {
          if (choice === 'Reload from Disk') await this.load();
          if (choice === 'Open File') await vscode.window.showTextDocument(vscode.Uri.file(this.file));
        });
    } else if (r.outcome === 'failed') {
      void vscode.window.showErrorMessage(`Spanproof could not write ${this.file}: ${r.error}`);
    }
    if (this.sync.gt !== before) {
      // The disk edit merged in may reference other documents.
      await this.refreshDiskTexts();
      this.resolve();
    }
    return r.outcome;
  }

  /** Called by the file watcher: ignore our own writes (by content), reload or merge a foreign edit. */
  async onDiskChange(): Promise<void> {
    if (this.refused()) return;
    const outcome = await this.sync.syncFromDisk();
    if (outcome === 'reloaded' || outcome === 'merged') {
      await this.refreshDiskTexts();
      this.resolve();
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
