// Type declarations for the parts of `braces` (micromatch's brace expansion, no bundled types) that
// src/core/corpus/glob.ts uses.
declare module 'braces' {
  namespace braces {
    interface Options {
      /** Largest range (`{1..N}`) expanded; a larger one throws. */
      rangeLimit?: number;
      /** Keep the backslashes of escaped characters in the expansions. */
      keepEscaping?: boolean;
    }
    /** A node of the brace AST (`braces.parse`). */
    interface BraceNode {
      type: 'root' | 'bos' | 'eos' | 'text' | 'brace' | 'open' | 'close' | 'comma' | 'range' | 'dot' | 'paren';
      value?: string;
      nodes?: BraceNode[];
      commas?: number;
      ranges?: number;
    }
  }
  const braces: {
    /** Every expansion of `pattern` (`a/{b,c}` → `a/b`, `a/c`; `{1..3}` → 1, 2, 3). */
    expand(pattern: string, options?: braces.Options): string[];
    parse(pattern: string, options?: braces.Options): braces.BraceNode;
    stringify(ast: braces.BraceNode | string, options?: braces.Options): string;
  };
  export = braces;
}
