/**
 * The network libraries, loaded on first use. Every bundle (dist/cli.js, dist/worker.js,
 * dist/extension.js) contains `openai` and `undici`, but a run without endpoints, judges or model
 * downloads never needs them: a static `import` would execute both packages' module code in every
 * process and worker at start-up (measured, Node 20: `openai` ≈ 6 MB RSS, `undici` ≈ 10 MB, issue #13).
 * A `require` inside a function is bundled by esbuild as a lazily initialised module, so the cost is
 * paid only by the first request.
 */
type OpenAISdk = typeof import('openai');
type Undici = typeof import('undici');

let openaiModule: OpenAISdk | undefined;
let undiciModule: Undici | undefined;

/** The `openai` package (loaded on the first call, then cached). */
export function openaiSdk(): OpenAISdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, CommonJS bundle
  return (openaiModule ??= require('openai') as OpenAISdk);
}

/** The `undici` package (loaded on the first call, then cached). */
export function undici(): Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, CommonJS bundle
  return (undiciModule ??= require('undici') as Undici);
}

/**
 * `e instanceof` one of the `openai` error classes, without loading the package when it was never
 * loaded (then no request was made and `e` cannot be one).
 */
export function isOpenAIError<K extends 'APIError' | 'APIConnectionTimeoutError' | 'APIUserAbortError'>(e: unknown, kind: K): e is InstanceType<OpenAISdk[K]> {
  return openaiModule !== undefined && e instanceof openaiModule[kind];
}
