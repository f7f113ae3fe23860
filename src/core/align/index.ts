/**
 * Fuzzy text alignment, used only by importers and reports (SPEC §3.2: never in resolution): Python
 * difflib's SequenceMatcher ratio, and the alignment of an excerpt to the document text it came from
 * (similarity reported).
 */
export { sequenceMatcherRatio, SequenceMatcher } from './sequence-matcher';
export { longestCommonBlock, type CommonBlock } from './longest-block';
export { alignExcerpt, MAX_FUZZY_CHARS, MAX_RATIO_WORK, type Alignment, type AlignmentRefused, type AlignmentWork } from './align';
