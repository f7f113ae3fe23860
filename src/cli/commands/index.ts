/**
 * Registers every CLI command. One file per command; each exports `register(program, setExit)`.
 */
import type { Command } from 'commander';
import * as validate from './validate';
import * as chunks from './chunks';
import * as query from './query';
import * as run from './run';
import * as report from './report';
import * as importCmd from './import';
import * as score from './score';
import * as bias from './bias';
import * as generate from './generate';
import * as models from './models';
import * as draft from './draft';
import * as review from './review';
import * as merge from './merge';
import * as exportCmd from './export';
import * as safety from './safety';
import * as runs from './runs';

export type SetExit = (code: number) => void;

const modules: Array<{ register(program: Command, setExit: SetExit): void }> = [
  validate,
  chunks,
  query,
  run,
  report,
  importCmd,
  score,
  bias,
  generate,
  models,
  draft,
  review,
  merge,
  exportCmd,
  safety,
  runs,
  // Commands are added here as they land: validate, chunks, query, run, report, import, score.
];

export function registerCommands(program: Command, setExit: SetExit): void {
  for (const m of modules) m.register(program, setExit);
}
