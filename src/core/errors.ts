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

export interface SpanproofErrorDetails {
  /** The file concerned, as the user would type it. */
  file?: string;
  /** JSON path (`questions[3].evidence[0].exact`) or `line N`. */
  field?: string;
  /** What the user should do about it. */
  fix?: string;
  /** The run directory of a run that stopped (a cancelled run keeps its run.json there, status `cancelled`). */
  runDir?: string;
  cause?: unknown;
}

export class SpanproofError extends Error {
  readonly code: SpanproofErrorCode;
  readonly file?: string;
  readonly field?: string;
  readonly fix?: string;
  /** The run directory of a run that stopped with this error (see SpanproofErrorDetails.runDir). */
  runDir?: string;

  constructor(code: SpanproofErrorCode, message: string, details: SpanproofErrorDetails = {}) {
    super(SpanproofError.format(message, details), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SpanproofError';
    this.code = code;
    this.file = details.file;
    this.field = details.field;
    this.fix = details.fix;
    if (details.runDir !== undefined) this.runDir = details.runDir;
  }

  private static format(message: string, d: SpanproofErrorDetails): string {
    const where = [d.file, d.field].filter(Boolean).join(': ');
    return `${where ? `${where}: ` : ''}${message}${d.fix ? ` Fix: ${d.fix}` : ''}`;
  }
}

/** True when `e` is a SpanproofError (also across worker/structured-clone boundaries, by name and code). */
export function isSpanproofError(e: unknown): e is SpanproofError {
  return e instanceof SpanproofError || (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'SpanproofError');
}
