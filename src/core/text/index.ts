/**
 * Text safety for output surfaces: {@link terminalSafe} (escape sequences and invisible controls out
 * of anything printed to a terminal). Markdown escaping lives with the Markdown report (core/report).
 * {@link csvCell}: one spreadsheet-safe CSV cell (no formula injection).
 * {@link ASCII_WHITESPACE}: the piece boundary of the memoised tokenisers.
 */
export { terminalSafe } from './terminal';
export { ASCII_WHITESPACE } from './whitespace';
export { csvCell } from './csv';
export { closestName, editDistance } from './similar';
