/**
 * The model catalogue (SPEC §5.3 "Download catalogue"): a few small ONNX models on the Hugging Face
 * hub, pinned by commit and per-file SHA-256 and size, fetched on explicit request only into the
 * per-user model folder, and loaded like any model folder afterwards.
 *
 * - {@link CATALOGUE}, {@link findCatalogueEntry}, {@link missingPins}, {@link entryBytes}; {@link readCatalogueFile}
 *   for an organisation's own catalogue (same shape, validated).
 * - {@link pullModel}(entry, opts) → folder: streamed, resumable (HTTP Range), verified download with
 *   progress, cancel, proxy variables and an idle timeout; a failure never leaves a model folder.
 * - {@link modelState}, {@link resolvePulledModel}(name) → folder for the loaders, {@link removeModel}.
 * - {@link modelStoreDir}: `SPANPROOF_MODELS_DIR`, else `<user cache dir>/models`; {@link hubUrl}: `HF_ENDPOINT` or https://huggingface.co.
 */
export { CATALOGUE, catalogueSchema, entryBytes, findCatalogueEntry, missingPins, type CatalogueEntry, type CatalogueFile } from './entries';
export { readCatalogueFile } from './file';
export { DownloadFailure, redactUrl, type ProxyEnv } from './download';
export { hubUrl, mb, modelState, modelStoreDir, pullModel, pulledModelDir, removeModel, resolvePulledModel, type ModelState, type PullOptions, type PullProgress, type PulledManifest } from './store';
