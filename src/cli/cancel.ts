/**
 * Cancelling a long command: Ctrl-C (SIGINT) and SIGTERM (`kill PID`, `docker stop`, systemd, a CI
 * job's timeout) are handled alike — the command's abort signal is raised, a run is recorded as
 * `cancelled` (not left `running`, later read as `interrupted`) and the exit status is 128 + the
 * signal's number, the shell convention: 130 for SIGINT, 143 for SIGTERM — of the first signal, the
 * one that cancelled it. While the command finishes cancelling (writes run.json, stops its threads),
 * one more signal is absorbed (an impatient second Ctrl-C, or `docker stop` after Ctrl-C, used to kill
 * the process with no status written); the next one after that exits at once with that status.
 */
import { EXIT } from './exit';

let received: 'SIGINT' | 'SIGTERM' | null = null;
let absorbing = false;

/** After the first signal: the listeners that keep one more signal from killing the process (see above). */
function absorbLaterSignals(): void {
  if (absorbing) return;
  absorbing = true;
  let later = 0;
  // Added while the first signal is emitted, so called from the second on: absorbs it, exits on the third.
  const after = (): void => {
    if (++later >= 2) process.exit(cancelledExitStatus());
  };
  process.on('SIGINT', after);
  process.on('SIGTERM', after);
}

/** Calls `cancel` on SIGINT and on SIGTERM until the returned function removes both listeners. */
export function onCancelSignal(cancel: () => void): () => void {
  received = null;
  const on = (signal: NodeJS.Signals): void => {
    received ??= signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'; // the signal that cancelled it: the first
    absorbLaterSignals();
    cancel();
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return () => {
    process.off('SIGINT', on);
    process.off('SIGTERM', on);
  };
}

/** The exit status of a cancelled command: 143 when SIGTERM cancelled it, else 130 (Ctrl-C). */
export function cancelledExitStatus(): number {
  return received === 'SIGTERM' ? EXIT.terminated : EXIT.cancelled;
}
