/**
 * Cancelling a long command: Ctrl-C (SIGINT) and SIGTERM (`kill PID`, `docker stop`, systemd, a CI
 * job's timeout) are handled alike — the command's abort signal is raised, a run is recorded as
 * `cancelled` (not left `running`, later read as `interrupted`) and the exit status is 128 + the
 * signal's number, the shell convention: 130 for SIGINT, 143 for SIGTERM.
 */
import { EXIT } from './exit';

let received: 'SIGINT' | 'SIGTERM' | null = null;

/** Calls `cancel` on SIGINT and on SIGTERM until the returned function removes both listeners. */
export function onCancelSignal(cancel: () => void): () => void {
  received = null;
  const on = (signal: NodeJS.Signals): void => {
    received ??= signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'; // the signal that cancelled it: the first
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
