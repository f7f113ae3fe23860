/**
 * The tokenizer of Universal Sentence Encoder Lite, reproducing token for token the SentencePiece
 * port that ships with the model's TF.js release (`Tokenizer.encode` of
 * `@tensorflow-models/universal-sentence-encoder` 1.3.3, Apache-2.0, Google). Spanproof carries its
 * own implementation because Hugging Face's Unigram model is a different algorithm at the edges
 * (docs/models.md "use-lite tokenizer"): it gives unknown characters the score min − 10 and adds an
 * unknown node wherever no ONE-character piece starts, whereas the TF.js port scores unknowns 0 and
 * adds one only where NO piece starts. The ids must match the port exactly, because the model was
 * checked against it (`npm run build:models -- --check`).
 *
 * The algorithm, in UTF-16 code units (the port iterates strings by index, so an emoji is two
 * symbols):
 * 1. text ← NFKC(text); if non-empty: "▁" + text with every U+0020 space replaced by "▁"
 *    (other whitespace, e.g. "\n", stays a symbol of its own).
 * 2. Lattice: from each position i, every vocabulary piece (ids ≥ 6; the first six are reserved)
 *    that is a prefix of the rest; if none, one unknown piece (id 0, score 0, one symbol).
 * 3. Viterbi, end positions ascending, start positions ascending: a candidate replaces the best of
 *    its end position when that best is exactly 0 (the port's "unset" marker) or the candidate's
 *    score is ≥ it (ties go to the later start). A start never reached keeps best 0.
 * 4. Backtrace from the end, stepping back by the chosen piece's length (unknown: 1); consecutive
 *    unknown ids merge into one.
 * When two vocabulary entries have the same piece, the later id wins (as the port's trie does).
 */

/** The six reserved ids of the USE vocabulary: 0 = unknown ("\uFFFD"), 1 `<s>`, 2 `</s>`, 3–5 extra ids. */
export const USE_RESERVED_IDS = 6;
/** Id of the unknown piece. */
export const USE_UNK_ID = 0;
const SEPARATOR = '\u2581';

interface TrieNode {
  children: Map<number, TrieNode>;
  /** Vocabulary id ending here, or −1. */
  id: number;
  score: number;
}

function newNode(): TrieNode {
  return { children: new Map(), id: -1, score: 0 };
}

/** A USE-lite SentencePiece tokenizer over a `[piece, score][]` vocabulary (`vocab.json` order = ids). */
export class UseSentencePieceTokenizer {
  private readonly root = newNode();
  private readonly pieceLength: Int32Array;
  private readonly ids = new Map<string, number>();

  /**
   * @param vocab `[piece, log-probability]` pairs, id = index; the first {@link USE_RESERVED_IDS}
   *   entries are reserved symbols and never matched in text.
   * Throws Error if the vocabulary has no more entries than the reserved ones.
   */
  constructor(vocab: readonly (readonly [string, number])[]) {
    if (vocab.length <= USE_RESERVED_IDS) throw new Error(`a USE vocabulary needs more than ${USE_RESERVED_IDS} entries, got ${vocab.length}`);
    this.pieceLength = Int32Array.from(vocab, ([p]) => p.length);
    vocab.forEach(([piece], id) => this.ids.set(piece, id));
    for (let id = USE_RESERVED_IDS; id < vocab.length; id++) {
      const [piece, score] = vocab[id];
      let node = this.root;
      for (let k = 0; k < piece.length; k++) {
        const c = piece.charCodeAt(k);
        let next = node.children.get(c);
        if (!next) {
          next = newNode();
          node.children.set(c, next);
        }
        node = next;
      }
      if (piece.length > 0) {
        node.id = id;
        node.score = score;
      }
    }
  }

  /** Vocabulary size. */
  get size(): number {
    return this.pieceLength.length;
  }

  /** Id of a piece (the last entry when a piece repeats), or undefined. */
  tokenToId(piece: string): number | undefined {
    return this.ids.get(piece);
  }

  /** Token ids of `text` (no special tokens, no truncation); `[]` for text that is empty after NFKC. */
  encode(text: string): number[] {
    const normalised = text.normalize('NFKC');
    if (normalised.length === 0) return [];
    const s = SEPARATOR + normalised.replaceAll(' ', SEPARATOR);
    const n = s.length;
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    // The port fills end positions in ascending order and, per end, start positions in ascending
    // order; a start's best is final before any edge leaves it, so relaxing edges start by start
    // visits each end's candidates in the same order.
    for (let i = 0; i < n; i++) {
      let node: TrieNode | undefined = this.root.children.get(s.charCodeAt(i));
      let matched = false;
      for (let j = i; j < n && node; j++) {
        if (node.id >= 0) {
          matched = true;
          relax(best, words, j + 1, node.score + best[i], node.id);
        }
        node = j + 1 < n ? node.children.get(s.charCodeAt(j + 1)) : undefined;
      }
      if (!matched) relax(best, words, i + 1, best[i], USE_UNK_ID);
    }
    const reversed: number[] = [];
    for (let at = n; at > 0; ) {
      const id = words[at];
      if (!(id === USE_UNK_ID && reversed.length > 0 && reversed[reversed.length - 1] === USE_UNK_ID)) reversed.push(id);
      at -= id === USE_UNK_ID ? 1 : this.pieceLength[id];
    }
    return reversed.reverse();
  }
}

function relax(best: Float64Array, words: Int32Array, end: number, score: number, id: number): void {
  if (best[end] === 0 || score >= best[end]) {
    best[end] = score;
    words[end] = id;
  }
}
