/**
 * What the results panel needs from the rest of the extension, as a narrow structural interface (the
 * composition root passes itself), and the document reads the panel's requests share.
 */
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { readDocumentInside, resolveInside } from '../core/corpus';
import type { GridRunResult, LiveQuestionData, ProgressMessage, RunSummary } from '../shared/protocol';
import type { GroundTruthStore } from './store';

/** One workspace folder as the panel sees it: its ground truth and its runs. */
export interface PanelFolder {
  store: Pick<GroundTruthStore, 'folder' | 'openDocument' | 'resolution'>;
  runs: { runsRoot: string; runs: RunSummary[] };
}

export interface PanelHost {
  /** The folder whose runs the panel shows. */
  primary(): PanelFolder | undefined;
  runner: {
    onProgress: vscode.Event<ProgressMessage>;
    onDidFinish: vscode.Event<{ runDir: string | null; status: string }>;
    onCrash: vscode.Event<string>;
    cancel(): void;
  };
  /** Open the document at [start, end) (UTF-16 code units) in an editor. */
  revealSpan(source: string, start: number, end: number): Promise<void>;
}

/** Current text of a workspace document (the open editor's, else decoded from disk); undefined when unreadable. */
export function documentText(f: PanelFolder | undefined, source: string): string | undefined {
  if (!f) return undefined;
  const root = f.store.folder.uri.fsPath;
  // The webview names the source: confined to the folder by the CLI's real-path rule (#16 item 6).
  let abs: string;
  try {
    abs = resolveInside(root, source, `source "${source}"`, 'the workspace folder');
  } catch {
    return undefined;
  }
  const open = f.store.openDocument(source);
  if (open && path.resolve(open.uri.fsPath) === abs) return open.getText();
  const d = readDocumentInside(root, source);
  return 'text' in d ? d.text : undefined;
}

/** The live re-run of one question for the Question tab: its records and the resolved question with its evidence text (as evidence.json holds it). */
export function liveQuestionData(f: PanelFolder | undefined, result: GridRunResult, questionId: string): LiveQuestionData {
  const q = f?.store.resolution?.questions.find((x) => x.id === questionId);
  const question = q
    ? { id: q.id, question: q.question, match: q.match, spans: q.spans.map((s) => ({ source: s.source, start: s.start, end: s.end, text: documentText(f, s.source)?.slice(s.start, s.end) ?? '' })) }
    : null;
  return { questionId, question, records: result.records ?? [], k: result.results.k };
}
