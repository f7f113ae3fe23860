import type { CorpusDocument } from '../types';
import type { SkippedFile } from './index';

export function decodeDocument(source: string, bytes: Uint8Array): CorpusDocument | SkippedFile {
  void source; void bytes;
  throw new Error('not implemented');
}

export function sha256Hex(text: string): string {
  void text;
  throw new Error('not implemented');
}
