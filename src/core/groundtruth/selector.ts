import type { EvidenceSelector } from './index';
export function makeSelector(text: string, source: string, start: number, end: number, context = 32): EvidenceSelector { void text; void source; void start; void end; void context; throw new Error('not implemented'); }
