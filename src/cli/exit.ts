/**
 * The exit statuses of the `spanproof` command line (SPEC §11), and the one mapping from a
 * SpanproofError code to a status.
 */
import type { SpanproofErrorCode } from '../core/errors';

export const EXIT = {
  ok: 0,
  /** A gate failed (`--fail-under`, `--gate-config`), or questions did not resolve. */
  gate: 1,
  /** The user's input is wrong: a file, a flag, a model folder, a setting. */
  badInput: 2,
  /** A bug or a broken invariant, or the grid worker crashed. */
  internal: 3,
  /** Cancelled with Ctrl-C: 128 + SIGINT (2), the shell convention. */
  cancelled: 130,
  /** Cancelled with SIGTERM (`kill`, `docker stop`, a CI timeout): 128 + SIGTERM (15); handled as Ctrl-C is (./cancel.ts). */
  terminated: 143,
  /** The reader of stdout went away (`spanproof … | head`): 128 + SIGPIPE (13), the shell convention. */
  brokenPipe: 141,
} as const;

/** The exit status of a command that failed with a SpanproofError of `code`. */
export function exitStatusOf(code: SpanproofErrorCode): number {
  switch (code) {
    case 'cancelled':
      return EXIT.cancelled;
    case 'internal':
    case 'invariant':
    case 'worker-crashed':
      return EXIT.internal;
    default:
      return EXIT.badInput;
  }
}
