/**
 * Scorers of answer-level datasets (SPEC §11 `score`, §13): Azure AI evaluation JSONL and RAGAS
 * answers with the generation metrics, memory-eval keyword overlap, and the string-similarity judge.
 * No retrieval: each item's answer is scored against its reference, means with bootstrap CIs.
 */
/** The scorers of `spanproof score`. */
export const SCORE_FORMATS = ['azure', 'ragas', 'memory'] as const;
export type ScoreFormat = (typeof SCORE_FORMATS)[number];

export { stringSimJudge, type StringSimOptions, type StringSimVerdict, passFailGrid, type PassFailGrid } from './string-judge';
export { scoreAnswers, readAzureJsonl, readRagasAnswers, jsonArrayAsLines, nothingToScoreError, DEFAULT_ANSWER_METRICS, type AnswerRead, type AnswerItem, type AnswerJudge, type AnswerScoreReport, type ScoreOptions } from './answers';
export { readMemoryEval, scoreMemoryEval, type MemoryItem, type MemoryEvalReport, type MemoryEvalOptions } from './memory';
