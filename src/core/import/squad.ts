/**
 * SQuAD v1.1 / v2.0 JSON (rajpurkar.github.io/SQuAD-explorer): `data[].paragraphs[].{context, qas[]}`,
 * each qa `{id, question, answers[{text, answer_start}], is_impossible?}`; `answer_start` counts
 * **Python code points** → converted to UTF-16.
 *
 * Each paragraph becomes one document `squad/<article#>-<title>/p<paragraph#>.txt`. SQuAD answers are
 * short ("France") — shorter than the 12-character minimum of evidence (SPEC §3.2 rule 5) and not what
 * a retriever should be judged on — so each answer span is widened to the sentence(s) holding it
 * (`Intl.Segmenter` sentences); the original answer span is kept on the evidence as `answerStart`/
 * `answerEnd` (UTF-16) and `answerText`. Distinct sentences from different annotators are
 * alternatives (`match: "any"`). Answers become the reference answer (`answer`, all distinct texts in
 * `answers`). Unanswerable questions (v2.0 `is_impossible`) have no evidence: each is listed in
 * `rejected` with that reason and counted under `counts.unanswerable` — never silently dropped.
 */
import { MAX_JSON_DEPTH, jsonParseError, tooDeepPath } from '../files';
import { SpanproofError } from '../errors';
import { makeSelector, type EvidenceSelector, type Question } from '../groundtruth';
import { bump, emptyReport, readTextFile, requirePath, slug } from './common';
import { codePointToUtf16 } from './offsets';
import type { ImportedDocument, ImportOptions, ImportResult } from './index';

interface SquadQa { id?: string; question?: string; answers?: Array<{ text?: string; answer_start?: number }>; is_impossible?: boolean }
interface SquadFile { version?: string; data?: Array<{ title?: string; paragraphs?: Array<{ context?: string; qas?: SquadQa[] }> }> }

const sentenceSeg = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The trimmed sentence range(s) of `text` covering [start, end). */
function sentenceRange(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  for (const seg of sentenceSeg.segment(text)) {
    const a = seg.index;
    const b = a + seg.segment.length;
    if (b > start && a < end) {
      s = Math.min(s, a);
      e = Math.max(e, b);
    }
  }
  while (e > s && /\s/.test(text[e - 1])) e--;
  while (s < e && /\s/.test(text[s])) s++;
  return { start: Math.min(s, start), end: Math.max(e, end) };
}

/**
 * Where a (non-empty) answer `text` is in `context`, UTF-16 offsets: at `answerStart` (Python code
 * points) when the text is there, else the occurrence nearest to it (`corrected`); null when absent.
 */
function locateAnswer(context: string, toU16: (cp: number) => number | undefined, text: string, answerStart: number): { s: number; e: number; corrected: boolean } | null {
  const s = toU16(answerStart);
  const e = s === undefined ? undefined : toU16(answerStart + Array.from(text).length);
  if (s !== undefined && e !== undefined && context.slice(s, e) === text) return { s, e, corrected: false };
  const want = s ?? 0;
  let best = -1;
  for (let p = context.indexOf(text); p >= 0; p = context.indexOf(text, p + 1)) if (best < 0 || Math.abs(p - want) < Math.abs(best - want)) best = p;
  return best < 0 ? null : { s: best, e: best + text.length, corrected: true };
}

/** What kind of JSON value `v` is, for a message: `a string ("5")`, `a number (5)`, `an object`, `a list`, `null`. */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
  if (typeof v === 'number' || typeof v === 'boolean') return `a ${typeof v === 'number' ? 'number' : 'boolean'} (${String(v)})`;
  return 'an object';
}

/** `field` of the SQuAD file has the wrong shape. */
function shapeError(file: string, field: string, want: string): SpanproofError {
  return new SpanproofError('bad-input', `${field} is not ${want}.`, { file, field, fix: 'pass a SQuAD v1.1/v2.0 JSON file ({"data": [{"title", "paragraphs": [{"context", "qas": [{"id", "question", "answers"}]}]}]}).' });
}

/** Why the question `qa` cannot be used (an id that is not a string, no question text), or null. */
function qaProblem(qa: SquadQa | undefined): string | null {
  const id: unknown = qa?.id;
  if (id !== undefined && id !== null && typeof id !== 'string') return `id is ${jsonKind(id)} where a string is expected`;
  return typeof qa?.question !== 'string' || !qa.question.trim() ? 'empty "question"' : null;
}

/** Why the answer `a` (at `path`) cannot be used — its field named with the wrong type — or null. */
function answerProblem(a: unknown, path: string): string | null {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return `${path} is ${jsonKind(a)} where an object {"text", "answer_start"} is expected`;
  const { text, answer_start: start } = a as { text?: unknown; answer_start?: unknown };
  if (text === undefined) return `${path} has no "text"`;
  if (typeof text !== 'string') return `${path}.text is ${jsonKind(text)} where a string is expected`;
  if (start === undefined) return `${path} has no "answer_start"`;
  if (typeof start !== 'number') return `${path}.answer_start is ${jsonKind(start)} where a number is expected`;
  if (!Number.isInteger(start)) return `${path}.answer_start is ${start} where a whole number is expected`;
  return null;
}

/**
 * Imports a SQuAD JSON file.
 * @throws SpanproofError('bad-input') when the file is not JSON or has no `data` array.
 */
export function importSquad(file: string, _opts: ImportOptions): ImportResult {
  requirePath(file, false, 'pass the path of a SQuAD JSON file.');
  const report = emptyReport('squad', file);
  const text = readTextFile(file, 'SQuAD file');
  let json: SquadFile;
  try {
    // numeric ids (some SQuAD-style files use 64-bit integers) are read as strings so no digit is lost
    json = JSON.parse(text.replace(/("id"\s*:\s*)(-?\d+)(?=\s*[,}])/g, '$1"$2"')) as SquadFile;
  } catch (e) {
    throw jsonParseError(text, file, 'correct the JSON syntax there (a SQuAD v1.1/v2.0 file is one JSON object {"data": [...]}).', e); // located in the text as written
  }
  const deep = tooDeepPath(json);
  if (deep) throw new SpanproofError('bad-input', `nested more than ${MAX_JSON_DEPTH} levels deep; not read.`, { file, field: deep, fix: 'pass a SQuAD v1.1/v2.0 JSON file ({"data": [{"title", "paragraphs": [{"context", "qas"}]}]}).' });
  if (!Array.isArray(json?.data)) throw new SpanproofError('bad-input', 'no "data" array.', { file, field: 'data', fix: 'pass a SQuAD v1.1/v2.0 JSON file ({"version", "data": [{"title", "paragraphs"}]}).' });
  const documents: ImportedDocument[] = [];
  const questions: Question[] = [];
  const ids = new Set<string>();
  const wrongType = (field: string, want: string): SpanproofError => shapeError(file, field, want);
  json.data.forEach((article, ai) => {
    if (typeof article !== 'object' || article === null || Array.isArray(article)) throw wrongType(`data[${ai}]`, 'an object (an article)');
    if (article.paragraphs !== undefined && !Array.isArray(article.paragraphs)) throw wrongType(`data[${ai}].paragraphs`, 'a list');
    const dir = `squad/${String(ai + 1).padStart(3, '0')}-${slug(typeof article.title === 'string' ? article.title : 'untitled', 40)}`;
    (article.paragraphs ?? []).forEach((para, pi) => {
      const where = `data[${ai}].paragraphs[${pi}]`;
      if (typeof para !== 'object' || para === null || Array.isArray(para)) throw wrongType(where, 'an object (a paragraph)');
      if (para.qas !== undefined && !Array.isArray(para.qas)) throw wrongType(`${where}.qas`, 'a list');
      const context = para.context;
      const qas = para.qas ?? [];
      if (typeof context !== 'string' || !context.trim()) {
        qas.forEach((qa, qi) => {
          report.rowsRead++;
          report.rejected.push({ row: `${where}.qas[${qi}]`, ...(typeof qa?.id === 'string' ? { id: qa.id } : {}), reason: 'the paragraph has no "context" text' });
        });
        return;
      }
      const source = `${dir}/p${String(pi + 1).padStart(3, '0')}.txt`;
      documents.push({ source, text: context });
      const toU16 = codePointToUtf16(context);
      qas.forEach((qa, qi) => {
        report.rowsRead++;
        const row = `${where}.qas[${qi}]`;
        const id = typeof qa?.id === 'string' && qa.id ? qa.id : `squad-${ai + 1}-${pi + 1}-${qi + 1}`;
        const reject = (reason: string): void => void report.rejected.push({ row, id, reason });
        const badQa = qaProblem(qa);
        if (badQa) return reject(badQa);
        if (ids.has(id)) return reject(`duplicate id ${id}`);
        const answers = Array.isArray(qa.answers) ? qa.answers : [];
        if (qa.is_impossible || answers.length === 0) {
          bump(report, 'unanswerable');
          return reject('unanswerable (SQuAD 2.0 is_impossible): no evidence span to import');
        }
        const evidence: EvidenceSelector[] = [];
        const texts: string[] = [];
        const seen = new Set<string>();
        for (const [k, a] of answers.entries()) {
          const bad = answerProblem(a, `answers[${k}]`);
          if (bad) return reject(bad);
          if (!a.text) return reject(`answers[${k}].text is empty: no answer to locate`);
          const at = locateAnswer(context, toU16, a.text, a.answer_start!);
          if (!at) return reject(`answers[${k}].text ${JSON.stringify(a.text)} is not in the paragraph`);
          if (at.corrected) bump(report, 'answer-start-corrected');
          const { s, e } = at;
          if (!texts.includes(a.text)) texts.push(a.text);
          const sent = sentenceRange(context, s, e);
          const key = `${sent.start}:${sent.end}`;
          if (seen.has(key)) continue;
          seen.add(key);
          evidence.push({ ...makeSelector(context, source, sent.start, sent.end), answerStart: s, answerEnd: e, answerText: a.text });
        }
        ids.add(id);
        questions.push({ id, question: qa.question!.trim(), answer: texts[0], ...(texts.length > 1 ? { answers: texts } : {}), evidence, match: evidence.length > 1 ? 'any' : 'all', tags: ['squad'] });
        report.converted++;
      });
    });
  });
  report.documents = documents.length;
  report.notes.push('answer_start converted from Python code points to UTF-16 code units.');
  report.notes.push('each answer span was widened to its sentence (Intl.Segmenter) as evidence; the answer span is kept as answerStart/answerEnd/answerText on the evidence; different sentences from different annotators are alternatives (match "any").');
  if (report.counts.unanswerable) report.notes.push(`${report.counts.unanswerable} unanswerable question(s) (SQuAD 2.0) have no evidence and are listed as rejected.`);
  return { groundTruth: { spanproof: 1, corpus: 'squad', questions }, documents, report };
}
