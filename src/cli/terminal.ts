/**
 * Every string the CLI writes to stdout or stderr passes through core `terminalSafe` (#16 item 5):
 * {@link installTerminalGuard} wraps both streams' `write` once, at start-up, so no command can print
 * a hostile id, file name, dataset id or server message raw. JSON output is unchanged in meaning
 * (control characters inside JSON strings become `\uXXXX` escapes of themselves). The CLI's own
 * progress line, which needs a carriage return, goes through {@link writeProgress}.
 */
import { terminalSafe } from '../core/text';
import { EXIT } from './exit';
import { diskFullError } from '../core/fsErrors';

let rawStderr: ((s: string) => boolean) | null = null;

function guard(stream: NodeJS.WriteStream): (s: string) => boolean {
  const raw = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => raw(typeof chunk === 'string' ? terminalSafe(chunk) : chunk, ...rest)) as typeof stream.write;
  return (s: string) => raw(s);
}

/** Wraps process.stdout and process.stderr (idempotent). */
export function installTerminalGuard(): void {
  if (rawStderr) return;
  guard(process.stdout);
  rawStderr = guard(process.stderr);
}

/** Writes the progress line (`\r` + text) to stderr; its text is made terminal-safe, the leading `\r` kept. */
export function writeProgress(line: string): void {
  const text = line.replace(/^\r/, '');
  const safe = `\r${terminalSafe(text)}`;
  if (rawStderr) rawStderr(safe);
  else process.stderr.write(safe);
}

let pipesGuarded = false;

/**
 * Handles a reader that goes away (#16 item 17), once for every command: EPIPE on stdout (`spanproof
 * run --help | head`) ends the process quietly with {@link EXIT.brokenPipe} (141), as a SIGPIPE would —
 * there is no one left to read the output; EPIPE on stderr drops later diagnostics and lets the
 * command finish with its own exit status. Any other error on these streams is reported once on
 * whichever stream still works, without a stack trace, and ends the process with EXIT.internal.
 */
export function installBrokenPipeGuard(): void {
  if (pipesGuarded) return;
  pipesGuarded = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') process.exit(EXIT.brokenPipe);
    streamFailed('stdout', e);
  });
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return; // the stream is destroyed: later writes are dropped
    streamFailed('stderr', e);
  });
}

function streamFailed(which: 'stdout' | 'stderr', e: NodeJS.ErrnoException): never {
  // stdout redirected to a full disk (`spanproof report RUN > /dev/full`): the user's to fix, exit 2.
  const full = diskFullError(e, 'free some space, or redirect the output to a file on another disk.', which);
  try {
    if (full !== e) process.stderr.write(`spanproof: ${(full as Error).message}\n`);
    else if (which === 'stdout') process.stderr.write(`spanproof: cannot write to stdout: ${e.code ?? e.message}\n`);
  } catch {
    // nothing left to report to
  }
  process.exit(full !== e ? EXIT.badInput : EXIT.internal);
}
