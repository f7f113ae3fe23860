/**
 * The drafting prompts — Spanproof's own wording, versioned like the judge prompts
 * (src/core/judge/prompts.ts): identity `<id>@<version>#<hash>` (first 12 hex digits of SHA-256 over
 * the system and user templates) is part of the reply-cache key and of every draft's provenance, so an
 * edited prompt never reuses a cached reply. Bump `version` when the meaning changes; docs/ground-truth.md
 * lists the current versions.
 *
 * Each request carries ONE passage of ONE document, verbatim (no line numbers or markers inserted),
 * between the delimiter lines `<<<PASSAGE` and `PASSAGE>>>`, and asks for
 * `{"questions": [{"question", "answer", "evidence": [{"quote"}]}]}`.
 */
import { fill, promptVersion, type PromptTemplate } from '../judge/prompts';
import type { ChatMessage } from '../judge/types';

const REPLY_FORMAT =
  'Reply with one JSON object and nothing else: {"questions": [{"question": "<the question>", "answer": "<a short answer, one or two sentences>", ' +
  '"evidence": [{"quote": "<text copied exactly from the passage>"}]}]}. If the passage has nothing worth asking about ' +
  '(only a heading, a list of links, code with no explanation), reply {"questions": []}.';

const QUOTE_RULES =
  'Every quote must be copied character for character from the passage: the same words, spelling, capitalisation, punctuation and markup ' +
  '(keep Markdown such as ` or ** as written), at least a whole phrase of 12 characters or more, usually one or two full sentences. ' +
  'Never paraphrase, shorten with "...", fix typos, or join text from separate places into one quote.';

/** One passage → up to n questions, each answered by one or more verbatim quotes. */
export const DRAFT_QUESTIONS: PromptTemplate = {
  id: 'draft-questions',
  version: 1,
  system:
    'You write test questions for evaluating a search system over a set of documents. You are given one passage of one document. ' +
    'Write at most {{n}} question(s), each different from the others, that a real user of these documents could ask and that this passage answers. ' +
    'Ask as a user would, in your own words: do not copy the passage\'s phrases into the question, and do not refer to "the passage" or "the text". ' +
    'For each question give the evidence that answers it: the shortest quotes from the passage that together contain the answer. ' +
    QUOTE_RULES + ' ' + REPLY_FORMAT,
  user: 'Document: {{source}}\nSection: {{heading}}\n\nThe passage, copied verbatim from the document, is between the lines <<<PASSAGE and PASSAGE>>>.\n<<<PASSAGE\n{{passage}}\nPASSAGE>>>',
};

/** `--multi-evidence`: questions whose answer needs two or more separate quotes of the passage. */
export const DRAFT_MULTI_EVIDENCE: PromptTemplate = {
  id: 'draft-questions-multi',
  version: 1,
  system:
    'You write test questions for evaluating a search system over a set of documents. You are given one passage of one document. ' +
    'Write at most {{n}} question(s), each different from the others, that a real user of these documents could ask and whose full answer needs two or more separate places of this passage ' +
    '(for example a condition stated in one sentence and its consequence in another). ' +
    'Ask as a user would, in your own words: do not copy the passage\'s phrases into the question, and do not refer to "the passage" or "the text". ' +
    'For each question give the evidence: one quote for each place needed, two or more quotes. ' +
    QUOTE_RULES + ' ' + REPLY_FORMAT,
  user: DRAFT_QUESTIONS.user,
};

export const DRAFT_PROMPTS: PromptTemplate[] = [DRAFT_QUESTIONS, DRAFT_MULTI_EVIDENCE];

/** Delimiter lines around the passage; a passage that itself contains them gets numbered ones. */
function delimiters(passage: string): { open: string; close: string } {
  for (let i = 0; ; i++) {
    const tag = i === 0 ? 'PASSAGE' : `PASSAGE${i}`;
    if (!passage.includes(`<<<${tag}`) && !passage.includes(`${tag}>>>`)) return { open: `<<<${tag}`, close: `${tag}>>>` };
  }
}

/**
 * The chat messages asking for up to `n` questions on `passage` (the exact document text, unchanged).
 * `heading` is the passage's section heading ("(none)" when the document has no headings).
 */
export function draftMessages(p: PromptTemplate, vars: { n: number; source: string; heading: string | null; passage: string }): ChatMessage[] {
  const { open, close } = delimiters(vars.passage);
  const user = p.user.replaceAll('<<<PASSAGE', open).replaceAll('PASSAGE>>>', close);
  // One pass: a `{{…}}` inside the passage or heading is sent as written, never expanded.
  return [
    { role: 'system', content: fill(p.system, { n: String(vars.n) }) },
    { role: 'user', content: fill(user, { source: vars.source, heading: vars.heading ?? '(none)', passage: vars.passage }) },
  ];
}

/** Prompt id → version string, for provenance and docs. */
export function draftPromptVersions(): Record<string, string> {
  return Object.fromEntries(DRAFT_PROMPTS.map((p) => [p.id, promptVersion(p)]));
}
