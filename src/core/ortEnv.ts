/**
 * Side-effect module: import it before `onnxruntime-node`.
 *
 * The native library of onnxruntime-node 1.30 carries Microsoft's 1DS telemetry client (it names a
 * `OneCollector` endpoint and writes `<tmpdir>/mat-debug-<pid>.log` for every process that creates a
 * session). Spanproof sends nothing anywhere, so it sets the library's own switch
 * `ORT_DISABLE_TELEMETRY=1` before the library is loaded. Setting `process.env` on the main thread
 * changes the real process environment (Node calls setenv), which worker threads' native code also
 * reads; the CLI and the extension entry points import this module first for that reason.
 */
process.env.ORT_DISABLE_TELEMETRY = '1';

export {};
