/**
 * Every string the CLI writes to stdout or stderr passes through core `terminalSafe` (#16 item 5):
 * {@link installTerminalGuard} wraps both streams' `write` once, at start-up, so no command can print
 * a hostile id, file name, dataset id or server message raw. JSON output is unchanged in meaning
 * (control characters inside JSON strings become `\uXXXX` escapes of themselves). The CLI's own
 * progress line, which needs a carriage return, goes through {@link writeProgress}.
 */
import { terminalSafe } from '../core/text';

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
