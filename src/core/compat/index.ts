/**
 * The seed systems' own metric conventions (SPEC §13, reference/SEED-SYSTEMS.md), reproduced so their
 * numbers can be set beside Spanproof's standard ones: WeKnora's metrics with their quirks, the
 * WeKnora parity table, and Pathway CUAD's hit rule.
 */
export { cuadHitIndex, cuadRetrievalMetrics, type CuadHitOptions, type CuadRetrievalMetrics } from './cuad-hit';
export * from './weknora-compat';
export { weknoraParityTable, weknoraParityMarkdown, WEKNORA_PARITY_CASES, type WeknoraParityCase, type WeknoraParityRow } from './weknora-parity';
export { comparePathwayHitRule, readPathwayComparisonFromRun, type PathwayComparisonRow, type PathwayComparisonInput } from './cuad-compare';
