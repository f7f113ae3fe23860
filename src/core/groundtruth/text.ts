/** 1-based line number of UTF-16 offset `offset` in `text`; `\r\n`, `\r` and `\n` each count as one break. */
export function lineOf(text: string, offset: number): number { void text; void offset; throw new Error('not implemented'); }
