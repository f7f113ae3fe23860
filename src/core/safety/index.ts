/**
 * Risk and safety (issue #17, docs/safety.md): the offline injection exposure study — canaries of the
 * three XPIA kinds planted in a copy of the corpus, exposure@k per config — and, with an endpoint,
 * content-harm defect rates scored by a judge model.
 */
export * from './templates';
export { plantCanaries, FAR_MIN, DEFAULT_CANARIES_PER_KIND, type Canary, type PlantedCorpus, type PlantOptions } from './canaries';
export { injectionExposure, exposedAt, exposedItems, type ExposedItem, type ConfigExposure, type ChunkerExposure, type ExposureInput, type ExposureRecord } from './exposure';
export { runInjectionStudy, withInjectionStudy, INJECTION_NOTE, type InjectionStudyInput } from './study';
export type { InjectionStudy, AttacksFile, XpiaAttackFile, UpiaAttackFile } from './types';
export { HARM_CATEGORIES, SAFETY_CATEGORIES, HARM_PROMPTS, PROTECTED_MATERIAL_PROMPT, safetyPrompt, type HarmCategory, type SafetyCategory } from './prompts';
export { scoreSafety, judgeSafety, defectRateOf, severityLevel, parseThreshold, SEVERITY_LEVELS, DEFAULT_THRESHOLD, SAFETY_NOTE, type SafetyItem, type SafetyJudgement, type SafetyCategoryResult, type DefectRate, type SafetyReport, type SeverityLevel, type SafetyOptions } from './harm';
export { attackSuccess, generateFrom, runPool, MARKER, XPIA_FOLLOWED, type AttackJudgement, type AttackConfigResult, type AttackReport, type AttackOptions } from './attack';
export { runAttackStage, type AttackStageOptions } from './attackStage';
export { buildUpiaSets, upiaAttack, upiaDefect, UPIA_FORMAT, UPIA_NOTE, type UpiaQuestion, type UpiaReport, type UpiaConfigResult, type UpiaItem, type UpiaAnswer, type UpiaDefects } from './upia';
export { UPIA_TEMPLATES, UPIA_TEMPLATES_VERSION, upiaText } from './upiaTemplates';
export { runUpiaStage, type UpiaStageOptions } from './upiaStage';
export { readSafetyInput, scoreSafetyInput, type SafetyInput, type SafetyFile } from './harmInput';
