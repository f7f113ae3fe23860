/**
 * The settings type and its defaults, derived from the schema (./schema.ts): the same keys are the
 * VS Code settings `spanproof.<key>` (SPEC §12) and the keys of the CLI's `--config FILE` JSON (SPEC §11).
 */
import type { z } from 'zod';
import { RUN_SETTINGS_SCHEMA } from './schema';

/** The settings of a run, every key filled in (the schema's output). */
export type RunSettings = z.output<typeof RUN_SETTINGS_SCHEMA>;
/** Parameters of each chunker (SPEC §4), sizes in UTF-16 code units. */
export type ChunkerParams = RunSettings['chunkerParams'];

/** Every default (the schema applied to `{}`). Do not mutate: copy it (`structuredClone`) to change a value. */
export const DEFAULT_SETTINGS: RunSettings = RUN_SETTINGS_SCHEMA.parse({});
