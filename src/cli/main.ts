#!/usr/bin/env node
/**
 * The `spanproof` command line (SPEC §11). Each command lives in its own file under ./commands and
 * registers itself on the program; all of them call the same core as the extension and the worker.
 * Exit codes (./exit.ts): 0 success; 1 a gate failed / questions not resolved; 2 bad input; 3 internal
 * error or a crashed worker; 130 cancelled with Ctrl-C (143 with SIGTERM); 141 the reader of stdout went away
 * (`spanproof … | head`). commander's own errors (unknown option or command, missing argument) are
 * user mistakes in the same one-line format (`spanproof: … Fix: …`, exit 2); `spanproof` with no
 * command prints the help on stderr and exits 2 too (commander's default is 1, a gate's status here).
 */
import '../core/ortEnv'; // first: disables onnxruntime's telemetry before it loads
import { Command, CommanderError } from 'commander';
import { isSpanproofError } from '../core/errors';
import { RequestFailure } from '../core/judge/client';
import { registerCommands } from './commands';
import { VERSION } from '../core/version';
import { installBrokenPipeGuard, installTerminalGuard } from './terminal';
import { EXIT, exitStatusOf } from './exit';
import { diskFullError } from '../core/fsErrors';
import { cancelledExitStatus } from './cancel';
import { onReplyCacheWarning } from '../core/judge/cache';
import { refuseEmptyPathFlags } from './flags';


async function main(argv: string[]): Promise<number> {
  installBrokenPipeGuard(); // a reader that goes away ends the CLI quietly (#16 item 17)
  installTerminalGuard(); // every string printed is terminal-safe (#16 item 5)
  onReplyCacheWarning((line) => process.stderr.write(`warning: ${line}\n`)); // an edited or damaged judge reply file is asked again
  const program = new Command()
    .name('spanproof')
    .description('Span-level evaluation of RAG retrieval pipelines on your own documents.')
    .version(VERSION)
    .exitOverride()
    // commander's error lines are printed by the catch below, in the CLI's format
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => {} });
  program.hook('preAction', (_program, action) => refuseEmptyPathFlags(action));
  let exitCode = 0;
  registerCommands(program, (code) => { exitCode = code; });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // A full disk under whatever the command wrote (answers, a ledger, a cache): exit 2 with the fix.
    const e = diskFullError(error, 'free some space on that disk, or choose another --out / --cache-dir.');
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || (e.code === 'commander.help' && e.exitCode === 0)) return 0;
      process.stderr.write(`spanproof: ${commanderMistake(e, program, argv.slice(2))}\n`);
      return EXIT.badInput;
    }
    if (isSpanproofError(e)) {
      process.stderr.write(`spanproof: ${e.message}\n`);
      return exitStatusOf(e.code);
    }
    if (e instanceof RequestFailure) {
      // the endpoint the user configured could not be used (unreachable, refused key, unknown model…): their
      // configuration to fix, not a crash — the message already names the endpoint (redacted) and the cause
      process.stderr.write(`spanproof: ${e.message.replace(/\.?$/, '.')}\n  Fix: ${e.fix ?? 'check --endpoint (is the server running and reachable from here?), the API key in SPANPROOF_API_KEY and the model name, then run again.'}\n`);
      return EXIT.badInput;
    }
    process.stderr.write(`spanproof: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    return EXIT.internal;
  }
  return exitCode;
}

/**
 * commander's error as one line with a fix: `unknown option '--kk' (Did you mean --k?). Fix: see
 * spanproof run --help.` The help of no command (or `spanproof help <unknown>`) was printed already.
 */
function commanderMistake(e: CommanderError, program: Command, args: readonly string[]): string {
  if (e.code === 'commander.help') return `${args.length ? 'no such command' : 'no command given'}. Fix: give one of the commands listed above, e.g. spanproof run --workspace DIR (spanproof <command> --help shows its options).`;
  const what = e.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim().replace(/([^.?!)])$/, '$1.');
  const cmd = args.find((a) => program.commands.some((c) => c.name() === a));
  return `${what} Fix: ${cmd ? `see spanproof ${cmd} --help for its options and arguments.` : 'see spanproof --help for the commands.'}`;
}

// A command cancelled by SIGTERM rather than Ctrl-C exits 143, not 130 (./cancel.ts).
main(process.argv).then((code) => { process.exitCode = code === EXIT.cancelled ? cancelledExitStatus() : code; });
