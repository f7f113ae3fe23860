/**
 * Terminal safety for every string Spanproof prints (#16 item 5): ids, questions, file names, dataset
 * ids and server error messages come from files and servers the user does not control, and an escape
 * sequence in them can recolour, retitle, hide or fake terminal output (OSC 8 links, OSC 52 clipboard
 * writes, cursor moves). {@link terminalSafe} removes every ESC-introduced sequence (CSI `ESC [ … final`,
 * OSC `ESC ] … BEL|ST`, DCS/SOS/PM/APC strings, two-character escapes) and their 8-bit C1 forms, and
 * shows the remaining invisible controls as `\uXXXX` text: C0 controls other than tab and newline,
 * DEL, C1 controls (a CRLF line end becomes LF; a lone CR, which can overwrite a line, is shown), and
 * the bidirectional overrides (U+202A–U+202E, U+2066–U+2069) that reorder what
 * a reader sees. Inside JSON text the `\uXXXX` form is a valid escape of the same character, so JSON
 * output keeps its data.
 */

/** ESC-introduced sequences: CSI, OSC / DCS / SOS / PM / APC strings (ended by BEL or ST, or unterminated), two-character escapes. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b[\]PX^_][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?|\u009b[0-?]*[ -/]*[@-~]?|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;
/** Controls shown as `\uXXXX`: C0 except \t and \n, DEL, C1, bidi embeddings/overrides/isolates. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `s` safe to print on a terminal (see the module comment). Linear in the length of `s`. */
export function terminalSafe(s: string): string {
  return s.replace(ESCAPES, '').replace(/\r\n/g, '\n').replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
