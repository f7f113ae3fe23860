/**
 * Files on disk, the ways Spanproof touches them: atomic durable writes (temp + fsync + rename +
 * folder fsync), reading a whole file that must be a regular file of bounded size (read.ts), and
 * reading JSON / JSON Lines back with errors that name the file and the line.
 */
export { writeFileAtomic, writeFileAtomicAsync, openAtomicFile, type AtomicFile, type AtomicWriteOptions } from './atomic';
export { parseJsonLines, readJsonFile, readJsonLines, type JsonLine } from './json';
export { MAX_JSON_DEPTH, tooDeepPath } from './jsonDepth';
export { jsonParseError, jsonSyntaxError, lineColumnAt, parseJsonText, withoutExcerpt } from './jsonText';
export { assertKnownFormat, newerFormat } from './format';
export { FileRefusedError, MAX_DATA_FILE_BYTES, MAX_LOCK_FILE_BYTES, MAX_SETTINGS_FILE_BYTES, nonRegularKind, openForReading, readOpenedFile, readRegularFile, readRegularFileSync, readRegularTextSync, type ReadCheck, type Refusal } from './read';
