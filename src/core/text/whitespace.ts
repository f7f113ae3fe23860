/**
 * ASCII whitespace (space, \t, \n, \r, \f, \v) as a splitting pattern. Every Unicode word-break rule
 * (UAX #29) breaks on both sides of these, and no Unicode normalisation form composes them with a
 * neighbour, so tokenisers that drop whitespace give the same tokens for a text as for its pieces
 * between ASCII whitespace, one piece at a time (used by the BM25 tokens and the model tokenizer to
 * tokenise each distinct piece once).
 */
export const ASCII_WHITESPACE = /[ \t\n\r\f\v]+/;
