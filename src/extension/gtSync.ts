/**
 * The ground-truth file as the editor holds it, kept in sync with the disk without ever overwriting a
 * concurrent disk edit silently (SPEC §16). vscode-free, so the interleavings are unit-tested
 * (test/unit/extension/gtSync.test.ts); `GroundTruthStore` (store.ts) adds messages and resolution.
 *
 * Rules (each one closes a race that lost a disk edit or an editor edit):
 * - Every disk operation (`reload`, `syncFromDisk`, `write`) runs in ONE serialised queue, so a reload
 *   can never land between a write's read of the disk and its update of `base`.
 * - `base` is the exact text we last read from, or wrote to, the disk. After a write it is the text we
 *   wrote (computed, never re-read: a re-read can return a disk edit made right after our rename, which
 *   would then be taken for our own write and overwritten by the next write).
 * - A write re-reads the disk right before writing, three-way-merges (`mergeGroundTruth`) against `base`
 *   when the disk differs, and passes the text it read as `expectedContent` to core `writeGroundTruth`,
 *   which refuses when the disk changed in between (then the write re-reads and merges again).
 * - Watcher events are recognised as our own writes by content (`disk === base`), not by timing. A
 *   foreign change replaces the in-memory version when that has no unsaved edits, else is merged into it
 *   — decided synchronously right after the read, so an `edit` can never be lost to a reload.
 * - In-memory edits (`gt = …`) are synchronous; an edit made while a write is in flight is rebased onto
 *   what that write put on disk.
 */
import { MAX_DATA_FILE_BYTES, readRegularFile } from '../core/files/read';
import { parseGroundTruth, serializeGroundTruth, writeGroundTruth, type GroundTruthFile } from '../core/groundtruth';
import { mergeGroundTruth } from './merge';

/** Disk access, injectable so tests can interleave disk edits at exact points. */
export interface GroundTruthDisk {
  /** The file's text, or null when it does not exist. */
  read(file: string): Promise<string | null>;
  /** Core `writeGroundTruth` semantics: atomic; throws when the disk differs from `expectedContent`. */
  write(file: string, gt: GroundTruthFile, expectedContent: string | null): Promise<unknown>;
}

export const realDisk: GroundTruthDisk = {
  async read(file) {
    try {
      return (await readRegularFile(file, MAX_DATA_FILE_BYTES, { what: 'the ground-truth file' })).toString('utf8'); // a FIFO there never answered
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  },
  write: (file, gt, expectedContent) => writeGroundTruth(file, gt, { expectedContent }),
};

export type WriteOutcome = 'written' | 'unchanged' | 'merged' | 'conflict' | 'failed';

export interface WriteResult {
  outcome: WriteOutcome;
  /** outcome 'conflict': question ids (or `key:<name>`) edited differently here and on disk. */
  conflicts?: string[];
  /** outcome 'conflict' when the disk version is invalid, or 'failed': the error message. */
  error?: string;
}

/**
 * What `syncFromDisk` did: 'same' (disk equals `base`: no change, or our own write), 'reloaded'
 * (no unsaved edits: the disk version replaced the in-memory one), 'merged' (unsaved edits merged with
 * the disk edit; written by the next `write`), 'kept' (conflict or invalid disk file: the in-memory
 * version and `base` are kept, so the next `write` refuses with a message).
 */
export type SyncOutcome = 'same' | 'reloaded' | 'merged' | 'kept';

const EMPTY = (): GroundTruthFile => ({ spanproof: 1, questions: [] });

export class GroundTruthSync {
  /** In-memory ground truth; null when the file does not exist (or could not be parsed). Edit freely. */
  gt: GroundTruthFile | null = null;
  /** The file could not be parsed on the last reload; its message names file and field. */
  loadError: string | null = null;
  private baseText: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly disk: GroundTruthDisk = realDisk,
  ) {}

  /** Exact disk text we last read or wrote (null: no file). */
  get base(): string | null {
    return this.baseText;
  }

  /** True when the in-memory version differs from `base`. */
  get dirty(): boolean {
    if (!this.gt) return false;
    return this.baseText === null || serializeGroundTruth(this.gt, { like: this.baseText }) !== this.baseText;
  }

  /** Run `op` after every queued operation. */
  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** (Re)read the file, replacing the in-memory version (explicit reload). Queued. */
  reload(): Promise<void> {
    return this.enqueue(async () => {
      const text = await this.disk.read(this.file);
      this.adopt(text);
    });
  }

  private adopt(text: string | null): void {
    this.baseText = text;
    this.loadError = null;
    if (text === null) {
      this.gt = null;
      return;
    }
    try {
      this.gt = parseGroundTruth(text, this.file);
    } catch (e) {
      this.gt = null;
      this.loadError = e instanceof Error ? e.message : String(e);
    }
  }

  /** The file changed on disk (watcher): ignore our own writes, reload or merge a foreign edit. Queued. */
  syncFromDisk(): Promise<SyncOutcome> {
    return this.enqueue(async () => {
      const text = await this.disk.read(this.file);
      // From here to the end: synchronous, so no in-memory edit can interleave.
      if (text === this.baseText) return 'same';
      if (!this.dirty || this.loadError) {
        this.adopt(text);
        return 'reloaded';
      }
      if (text === null) return 'kept'; // deleted on disk with unsaved edits here: the next write recreates it
      let theirs: GroundTruthFile;
      try {
        theirs = parseGroundTruth(text, this.file);
      } catch {
        return 'kept';
      }
      const m = mergeGroundTruth(this.baseGt(), this.gt!, theirs);
      if (!m.merged) return 'kept';
      this.gt = m.merged;
      this.baseText = text;
      return 'merged';
    });
  }

  private baseGt(): GroundTruthFile {
    return this.baseText === null ? EMPTY() : parseGroundTruth(this.baseText, this.file);
  }

  /** Write the in-memory version, merging a concurrent disk edit or refusing on conflict. Queued. */
  write(): Promise<WriteResult> {
    return this.enqueue(() => this.writeNow());
  }

  private async writeNow(): Promise<WriteResult> {
    const ours = this.gt;
    if (!ours) return { outcome: 'unchanged' };
    for (let attempt = 0; ; attempt++) {
      const onDisk = await this.disk.read(this.file);
      let next = ours;
      let outcome: WriteOutcome = 'written';
      if (onDisk !== this.baseText && onDisk !== null) {
        // Someone else changed the file since we read it: merge by question id, or refuse.
        let theirs: GroundTruthFile;
        try {
          theirs = parseGroundTruth(onDisk, this.file);
        } catch (e) {
          return { outcome: 'conflict', error: e instanceof Error ? e.message : String(e) };
        }
        const m = mergeGroundTruth(this.baseGt(), ours, theirs);
        if (!m.merged) return { outcome: 'conflict', conflicts: m.conflicts };
        next = m.merged;
        outcome = 'merged';
      }
      const text = serializeGroundTruth(next, { like: onDisk });
      if (text === onDisk) {
        this.settle(ours, next, onDisk);
        return { outcome: 'unchanged' };
      }
      try {
        await this.disk.write(this.file, next, onDisk);
      } catch (e) {
        // Refused because the disk changed after our read (or a real I/O error): read and merge again.
        const now = await this.disk.read(this.file).catch(() => onDisk);
        if (now !== onDisk && attempt < 3) continue;
        return { outcome: 'failed', error: e instanceof Error ? e.message : String(e) };
      }
      this.settle(ours, next, text);
      return { outcome };
    }
  }

  /**
   * The disk now holds `next` as `text`. The in-memory version becomes `next`, with any edit made
   * while the write was in flight (gt no longer `ours`) rebased onto it; `base` becomes `text`.
   */
  private settle(ours: GroundTruthFile, next: GroundTruthFile, text: string): void {
    if (this.gt === ours || !this.gt) this.gt = next;
    else if (next !== ours) {
      const m = mergeGroundTruth(ours, this.gt, next);
      // On a conflict keep the edit and the old base: the next write sees the disk differ from the base,
      // finds the same conflict and refuses with a message instead of overwriting the merged question.
      if (!m.merged) return;
      this.gt = m.merged;
    }
    this.baseText = text;
  }
}
