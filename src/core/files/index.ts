/**
 * Files on disk, the two ways Spanproof touches them: atomic durable writes (temp + fsync + rename +
 * folder fsync) and reading JSON / JSON Lines back with errors that name the file and the line.
 */
export { writeFileAtomic, writeFileAtomicAsync, openAtomicFile, type AtomicFile, type AtomicWriteOptions } from './atomic';
export { parseJsonLines, readJsonFile, readJsonLines, type JsonLine } from './json';
export { MAX_JSON_DEPTH, tooDeepPath } from './jsonDepth';
export { jsonParseError, jsonSyntaxError, lineColumnAt, parseJsonText, withoutExcerpt } from './jsonText';
export { assertKnownFormat, newerFormat } from './format';
