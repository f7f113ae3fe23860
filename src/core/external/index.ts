/**
 * External retrievers (issue #18, docs/external.md): the user's own retriever — a command speaking
 * JSON Lines or a URL — scored beside the built-in grid as `external/<name>/none`. This module talks
 * to the retriever and maps what it returns to corpus passages; src/core/grid/external.ts scores them
 * with the shared metrics and attribution.
 */
export { type ExternalRequest, type ExternalAnswer, type RawItem, RESULTS_SCHEMA, ANSWER_LINE_SCHEMA } from './protocol';
export { runRetrieverCommand, type CommandOptions, type CommandOutcome } from './command';
export { queryRetrieverUrl, type UrlOptions } from './http';
export { mapReturnedItems, MIN_ALIGNMENT_SIMILARITY, type MappedPassages, type DroppedItem, type DropReason, type ExternalItemInfo } from './passages';
