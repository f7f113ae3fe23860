/**
 * Number flags shared by the commands: a count (`--k`, `--pool`, `--judge-retries`, …) is a whole
 * number written in digits (`1e3`, `0x10`, `5.0` are refused) within a range — for a flag that sets a
 * setting, the setting's own range (src/core/settings/schema.ts), so flag and settings file agree.
 */
import type { Command } from 'commander';
import { SpanproofError } from '../core/errors';

/** Metavariables of the flags that take a path (`--out <dir>`, `--groundtruth <file>`, …). */
const PATH_METAVARS = /<(dir|file|runDir)>$/;

/**
 * Refuses a path flag given as an empty string (`--out ""`, `--out "$UNSET_VAR"`): it was taken as
 * "not given", so the run went to the default folder without a word (fresh-user #13).
 * Called from the program's preAction hook, before any command does work.
 * @throws SpanproofError('bad-input') naming the flag and the fix.
 */
export function refuseEmptyPathFlags(command: Command): void {
  const values = command.opts<Record<string, unknown>>();
  for (const option of command.options) {
    if (!PATH_METAVARS.test(option.flags)) continue;
    const value = values[option.attributeName()];
    if (typeof value === 'string' && value.trim() === '') {
      const flag = option.long ?? option.flags;
      throw new SpanproofError('bad-input', `${flag} is empty.`, { field: flag, fix: `pass a path with ${flag}, or leave ${flag} out for its default (see spanproof ${command.name()} --help).` });
    }
  }
}

/** `value` of `flag` as a whole number from 1 to `max`. @throws SpanproofError('bad-input') naming the flag, the value and the range. */
export function countFlag(flag: string, value: string, max: number, example: number): number {
  return wholeFlag(flag, value, 1, max, example);
}

/** `value` of `flag` as a whole number from `min` to `max`. @throws SpanproofError('bad-input') naming the flag, the value and the range. */
export function wholeFlag(flag: string, value: string, min: number, max: number, example: number): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw new SpanproofError('bad-input', `${flag} "${value}" is not a whole number from ${min} to ${max}.`, { field: flag, fix: `pass a whole number in digits, e.g. ${flag} ${example}.` });
  return n;
}

/** `value` of `flag` if it is one of `choices`. @throws SpanproofError('bad-input') naming the flag and the value, with the choices in the fix. */
export function choiceFlag<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new SpanproofError('bad-input', `${flag} "${value}" is not one of ${choices.join(', ')}.`, { field: flag, fix: `pass one of them, e.g. ${flag} ${choices[0]}.` });
}
