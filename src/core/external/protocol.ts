/**
 * The wire format of an external retriever (issue #18, docs/external.md), for a command (JSON Lines
 * on stdin/stdout) and a URL (one POST per question) alike:
 *
 *   request  `{"id": "<question id>", "question": "<text>", "k": <passages wanted>}`
 *   answer   `{"id": "<question id>", "results": [item, ...]}` (a URL answers `{"results": [...]}`)
 *   item     `{"source": "<corpus path>", "start": <int>, "end": <int>}` — UTF-16 code units, half-open
 *            | `{"source": "<corpus path>", "text": "<passage text>"}` — aligned to the document
 *
 * Items are in rank order (best first); `score` may be given and is kept. Extra keys are ignored.
 */
import { z } from 'zod';

/** What Spanproof sends for one question. `k` = the run's candidate-pool size N (metrics at k use the first k). */
export interface ExternalRequest {
  id: string;
  question: string;
  k: number;
}

const offsetsItem = z.object({ source: z.string().min(1), start: z.number().int().nonnegative(), end: z.number().int().nonnegative(), score: z.number().optional() });
const textItem = z.object({ source: z.string().min(1), text: z.string().min(1), score: z.number().optional() });

/** One returned passage as the retriever gave it. */
export type RawItem = { source: string; start: number; end: number; score?: number } | { source: string; text: string; score?: number };

/** `{"results": [...]}` — the reply of a URL (and, with `id`, a command's output line). */
export const RESULTS_SCHEMA = z.object({ results: z.array(z.union([offsetsItem, textItem])) });
export const ANSWER_LINE_SCHEMA = RESULTS_SCHEMA.extend({ id: z.string() });

/** The answer for one question: its items, or why there is none (the item is then failed, never scored as zero). */
export type ExternalAnswer = { items: RawItem[] } | { error: string };

/** The first zod issue as "results.0.start: expected a number". */
export function issueText(e: z.ZodError): string {
  const i = e.issues[0];
  return `${i.path.map(String).join('.') || '(root)'}: ${i.message}`;
}
