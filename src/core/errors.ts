/**
 * Errors are values with a machine-readable code and a message that names the file, the field
 * (JSON path or line) and the fix. The CLI maps `code` to its exit status (SPEC §11).
 */
export type SpanproofErrorCode =
  | 'bad-input' // the user's file or argument is wrong (CLI exit 2)
  | 'not-found' // a named file/folder does not exist (CLI exit 2)
  | 'model' // a model folder is incomplete or not understood (CLI exit 2)
  | 'invariant' // an internal invariant failed, e.g. a chunk whose text does not match its offsets (exit 3)
  | 'cancelled' // the user cancelled (CLI exit 130)
  | 'worker-crashed' // the grid worker thread died or exited during a request; the host keeps working (exit 3)
  | 'internal'; // anything else (exit 3)

/** One of several problems reported together (every bad key of a settings file, not only the first). */
export interface SpanproofProblem {
  /** The file, when not the error's own `file`. */
  file?: string;
  /** JSON path or key path (`chunkerParams.heading.bogus`, `retrievers[0]`). */
  field: string;
  /** What is wrong. */
  message: string;
  /** What to do about it. */
  fix: string;
}

export interface SpanproofErrorDetails {
  /** The file concerned, as the user would type it. */
  file?: string;
  /** JSON path (`questions[3].evidence[0].exact`) or `line N`. */
  field?: string;
  /** What the user should do about it. */
  fix?: string;
  /** The run directory of a run that stopped (a cancelled run keeps its run.json there, status `cancelled`). */
  runDir?: string;
  /**
   * Every problem found, when there are several: the message lists each on its own line (field: what.
   * Fix: …) and `field`/`fix` of the error are the first's. One problem is the same as `field` + `fix`.
   */
  problems?: SpanproofProblem[];
  cause?: unknown;
}

/** `message` without the doubled full stop a quoted sentence leaves at its end (`…; not read further.` + `.`); an ellipsis stays. */
function oneFullStop(message: string): string {
  return message.replace(/([^.])\.\.$/, '$1.');
}

export class SpanproofError extends Error {
  readonly code: SpanproofErrorCode;
  readonly file?: string;
  readonly field?: string;
  readonly fix?: string;
  /** Every problem when several were found together (see SpanproofErrorDetails.problems). */
  readonly problems?: SpanproofProblem[];
  /** The run directory of a run that stopped with this error (see SpanproofErrorDetails.runDir). */
  runDir?: string;

  constructor(code: SpanproofErrorCode, message: string, details: SpanproofErrorDetails = {}) {
    // A message that opens with its field (`--k must be …`) names it already: not `--k: --k must be …`.
    const shownDetails = details.field !== undefined && opensWith(message, details.field) ? { ...details, field: undefined } : details;
    super(SpanproofError.format(message, shownDetails), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SpanproofError';
    this.code = code;
    this.file = details.file;
    const first = details.problems?.[0];
    this.field = details.field ?? first?.field;
    this.fix = details.fix ?? first?.fix;
    if (details.problems?.length) this.problems = details.problems;
    if (details.runDir !== undefined) this.runDir = details.runDir;
  }

  private static format(message: string, d: SpanproofErrorDetails): string {
    const ps = d.problems ?? [];
    if (ps.length > 1) {
      const lines = ps.map((p) => `\n  ${p.file && p.file !== d.file ? `${p.file}: ` : ''}${opensWith(p.message, p.field) ? '' : `${p.field}: `}${p.message} Fix: ${p.fix}`);
      return `${d.file ? `${d.file}: ` : ''}${message}${lines.join('')}`;
    }
    const where = [d.file, d.field].filter(Boolean).join(': ');
    return `${where ? `${where}: ` : ''}${oneFullStop(message)}${d.fix ? ` Fix: ${d.fix}` : ''}`;
  }
}

/**
 * True when `message` opens with the name `field` (`--k must be …` for `--k`): the message names it
 * already, and `--k: --k must be …` would say it twice.
 */
function opensWith(message: string, field: string): boolean {
  return message.startsWith(field) && !/^[\w.@[\]-]/.test(message.slice(field.length));
}

/**
 * One error for every problem in `problems` (at least one): a single problem is an ordinary error
 * (`file: field: message Fix: fix`); several are listed one per line under `heading`
 * (e.g. `3 settings are wrong:`), each with its field, what is wrong and its fix.
 */
export function errorOfProblems(code: SpanproofErrorCode, problems: readonly SpanproofProblem[], heading: string, file?: string): SpanproofError {
  if (problems.length === 0) throw new Error('errorOfProblems: no problem given');
  const first = problems[0];
  if (problems.length === 1) return new SpanproofError(code, first.message, { file: first.file ?? file, field: first.field, fix: first.fix, problems: [...problems] });
  const same = problems.every((p) => (p.file ?? file) === (first.file ?? file));
  return new SpanproofError(code, heading, { file: same ? first.file ?? file : file, problems: [...problems] });
}

/** True when `e` is a SpanproofError (also across worker/structured-clone boundaries, by name and code). */
export function isSpanproofError(e: unknown): e is SpanproofError {
  return e instanceof SpanproofError || (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'SpanproofError');
}
