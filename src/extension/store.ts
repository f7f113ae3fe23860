/**
 * The ground truth of one workspace folder as the editor sees it: the file on disk, the in-memory
 * version (with offsets that follow live edits), and its resolution against the current text of every
 * referenced document — the open editor's text when the document is open, the file otherwise.
 *
 * Writes are atomic (core `writeGroundTruth`) and never silent over a concurrent disk edit: the disk
 * version is re-read first and, when it changed since we last saw it, merged by question id
 * (`mergeGroundTruth`); a real conflict is refused with a message and nothing is written.
 */
import * as path from 'node:path';
import { readFile } from 'node:fs/promises';
import picomatch from 'picomatch';
import * as vscode from 'vscode';
import {
  parseGroundTruth,
  resolveGroundTruth,
  serializeGroundTruth,
  writeGroundTruth,
  type GroundTruthFile,
  type Resolution,
} from '../core/groundtruth';
import { decodeDocument } from '../core/corpus';
import type { RunSettings } from '../shared/settings';
import { mergeGroundTruth } from './merge';

export type WriteOutcome = 'written' | 'unchanged' | 'merged' | 'conflict' | 'failed';

export class GroundTruthStore implements vscode.Disposable {
  /** In-memory ground truth; null when the file does not exist yet. */
  gt: GroundTruthFile | null = null;
  /** The file could not be parsed; its message names file and field. */
  loadError: string | null = null;
  resolution: Resolution | null = null;
  /** Exact disk content we last read or wrote (null: no file). Used to detect concurrent edits. */
  private diskContent: string | null = null;
  /** Texts of referenced documents that are not open in an editor, read from disk. */
  private diskTexts = new Map<string, string | undefined>();
  private isIncluded: (source: string) => boolean = () => true;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private settings: RunSettings,
  ) {
    this.applySettings(settings);
  }

  get file(): string {
    return path.resolve(this.folder.uri.fsPath, this.settings.groundTruthPath);
  }

  get settingsMinQuote(): number {
    return this.settings.minQuoteLength;
  }

  applySettings(settings: RunSettings): void {
    this.settings = settings;
    const inc = picomatch(settings.include, { dot: true });
    const exc = picomatch(settings.exclude, { dot: true });
    this.isIncluded = (s) => inc(s) && !exc(s);
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

  /** (Re)read the ground-truth file and the referenced documents, then resolve. */
  async load(): Promise<void> {
    let content: string | null;
    try {
      content = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      content = null;
    }
    this.diskContent = content;
    this.loadError = null;
    if (content === null) this.gt = null;
    else {
      try {
        this.gt = parseGroundTruth(content, this.file);
      } catch (e) {
        this.gt = null;
        this.loadError = e instanceof Error ? e.message : String(e);
      }
    }
    await this.refreshDiskTexts();
    this.resolve();
  }

  private async refreshDiskTexts(only?: string): Promise<void> {
    const sources = new Set<string>();
    for (const q of this.gt?.questions ?? []) for (const e of q.evidence) sources.add(e.source);
    for (const s of sources) {
      if (only !== undefined && s !== only) continue;
      if (only === undefined && this.diskTexts.has(s)) continue;
      try {
        const bytes = await readFile(this.uriOf(s).fsPath);
        const d = decodeDocument(s, bytes);
        this.diskTexts.set(s, 'text' in d ? d.text : undefined);
      } catch {
        this.diskTexts.set(s, undefined);
      }
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
      this.resolution = resolveGroundTruth(this.gt, textOf, { minQuoteLength: this.settings.minQuoteLength });
      if (this.resolution.changed) this.gt = this.resolution.updated;
    }
    this.emitter.fire();
  }

  /** True when the in-memory version differs from the disk version. */
  get dirty(): boolean {
    if (!this.gt) return false;
    return this.diskContent === null || serializeGroundTruth(this.gt) !== this.diskContent;
  }

  /** Apply `edit` to a copy of the ground truth (created when missing) and write it. */
  async mutate(edit: (gt: GroundTruthFile) => void): Promise<WriteOutcome> {
    if (this.loadError) {
      void vscode.window.showErrorMessage(`Spanproof: the ground-truth file is invalid, fix it first. ${this.loadError}`);
      return 'failed';
    }
    const next: GroundTruthFile = structuredClone(this.gt ?? { spanproof: 1, questions: [] });
    edit(next);
    this.gt = next;
    this.resolve();
    return this.write();
  }

  /** Write moved offsets after the user saved a document (SPEC §3.2: offsets updated on save). */
  async saveMoved(): Promise<WriteOutcome> {
    if (!this.gt || !this.dirty) return 'unchanged';
    return this.write();
  }

  /** Write the in-memory version, merging a concurrent disk edit or refusing on conflict. Serialised. */
  write(): Promise<WriteOutcome> {
    const run = this.writing.then(() => this.writeNow());
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async writeNow(): Promise<WriteOutcome> {
    if (!this.gt) return 'unchanged';
    let onDisk: string | null;
    try {
      onDisk = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      onDisk = null;
    }
    let next = this.gt;
    let outcome: WriteOutcome = 'written';
    if (onDisk !== this.diskContent && onDisk !== null) {
      // Someone else changed the file since we read it: merge by question id, or refuse.
      let theirs: GroundTruthFile;
      try {
        theirs = parseGroundTruth(onDisk, this.file);
      } catch (e) {
        void vscode.window.showErrorMessage(
          `Spanproof did not save the ground truth: the file on disk changed and is now invalid (${e instanceof Error ? e.message : e}). Fix it, then save again.`,
        );
        return 'conflict';
      }
      const base = this.diskContent === null ? { spanproof: 1 as const, questions: [] } : parseGroundTruth(this.diskContent, this.file);
      const m = mergeGroundTruth(base, next, theirs);
      if (!m.merged) {
        // Not awaited: the refusal must not block the caller until the user reacts.
        void vscode.window
          .showWarningMessage(
            `Spanproof did not save the ground truth: ${path.basename(this.file)} was changed on disk and the same question(s) were edited here (${m.conflicts.join(', ')}).`,
            'Reload from Disk',
            'Open File',
          )
          .then(async (choice) => {
            if (choice === 'Reload from Disk') await this.load();
            if (choice === 'Open File') await vscode.window.showTextDocument(vscode.Uri.file(this.file));
          });
        return 'conflict';
      }
      next = m.merged;
      outcome = 'merged';
    }
    const text = serializeGroundTruth(next);
    if (text === onDisk) {
      this.diskContent = onDisk;
      this.gt = next;
      return 'unchanged';
    }
    try {
      await writeGroundTruth(this.file, next, { expectedContent: onDisk });
    } catch (e) {
      void vscode.window.showErrorMessage(`Spanproof could not write ${this.file}: ${e instanceof Error ? e.message : e}`);
      return 'failed';
    }
    this.diskContent = await readFile(this.file, 'utf8');
    if (outcome === 'merged') {
      this.gt = next;
      await this.refreshDiskTexts();
      this.resolve();
    }
    return outcome;
  }

  /** Called by the file watcher: reload unless the change is our own write. */
  async onDiskChange(): Promise<void> {
    const onDisk = await readFile(this.file, 'utf8').catch(() => null);
    if (onDisk === this.diskContent) return;
    if (this.dirty) return; // merged on our next write
    await this.load();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
