/**
 * Cancelling a long command: Ctrl-C (SIGINT) and SIGTERM (`kill PID`, `docker stop`, systemd, a CI
 * job's timeout) are handled alike — the command's abort signal is raised, a run is recorded as
 * `cancelled` (not left `running`, later read as `interrupted`) and the exit status is 128 + the
 * signal's number, the shell convention: 130 for SIGINT, 143 for SIGTERM — of the first signal, the
 * one that cancelled it. While the command finishes cancelling (writes run.json, stops its threads),
 * one more signal is absorbed (an impatient second Ctrl-C, or `docker stop` after Ctrl-C, used to kill
 * the process with no status written); the next one after that ends the process at once.
 *
 * One listener per signal stays from the first phase to the end of the process, so a signal between
 * phases (after a run's files are written, while its table is printed) no longer kills the process
 * with the default action — exit 130 with run.json `succeeded` and nothing printed (fresh-user #13).
 * There it is absorbed and the command ends as it would have (it has nothing left to cancel); a
 * second signal there ends the process at once.
 *
 * "At once" re-raises the first signal with its default action instead of `process.exit`: exit
 * handlers ran while onnxruntime's threads were still inferring in a chunker thread and aborted the
 * process (exit 134, `terminate called after throwing an instance of 'Napi::Error'`, fresh-user #13).
 * The shell sees the same status, 128 + the signal's number.
 */
import { EXIT } from './exit';

type CancelSignal = 'SIGINT' | 'SIGTERM';
/** The signal that cancelled the current phase (null: none yet). */
let received: CancelSignal | null = null;
/** The running phase's cancel (null between phases). */
let phase: (() => void) | null = null;
/** Signals after the one that cancelled the phase, or since the last phase ended. */
let later = 0;
let listening = false;

/** Ends the process now with `signal`'s default action (its status: 130 / 143); process.exit if that does not end it. */
function endNow(signal: CancelSignal): void {
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  const status = signal === 'SIGTERM' ? EXIT.terminated : EXIT.cancelled;
  try {
    process.kill(process.pid, signal);
  } catch {
    process.exit(status);
  }
  setTimeout(() => process.exit(status), 200).unref?.();
}

function onSignal(signal: NodeJS.Signals): void {
  const s: CancelSignal = signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
  if (received === null && phase) {
    received = s; // the signal that cancelled it: the first
    later = 0;
    phase();
    return;
  }
  // After the cancel (or between phases): one more is absorbed, the next ends the process.
  if (++later >= 2) return endNow(received ?? s);
  phase?.();
}

/**
 * Calls `cancel` on SIGINT and on SIGTERM (the first one, and the one absorbed after it) until the
 * returned function ends the phase. Phases do not nest: a new one replaces the one before.
 */
export function onCancelSignal(cancel: () => void): () => void {
  if (!listening) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    listening = true;
  }
  received = null;
  later = 0;
  phase = cancel;
  return () => {
    if (phase === cancel) phase = null;
  };
}

/** The exit status of a cancelled command: 143 when SIGTERM cancelled it, else 130 (Ctrl-C). */
export function cancelledExitStatus(): number {
  return received === 'SIGTERM' ? EXIT.terminated : EXIT.cancelled;
}
