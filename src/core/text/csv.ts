/**
 * One CSV cell (RFC 4180) for every CSV Spanproof writes (the report's CSV, the MLflow heatmap.csv),
 * safe to open in a spreadsheet (#16 N5): a text cell starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return is a formula to Excel, LibreOffice and Google Sheets — a question or config id such as
 * `=HYPERLINK("http://x","y")` ran as one — so it gets a leading `'` (OWASP "CSV Injection"), then is
 * quoted as usual when it holds `"`, `,`, CR or LF. Numbers are written as numbers (`-0.05` stays a
 * number); null, undefined and non-finite numbers are empty cells.
 */

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV Injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** `v` as one CSV cell: see the module comment. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
  const s = typeof v === 'string' && FORMULA_START.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
