/**
 * Text safety for output surfaces: {@link terminalSafe} (escape sequences and invisible controls out
 * of anything printed to a terminal). Markdown escaping lives with the Markdown report (core/report).
 */
export { terminalSafe } from './terminal';
