/**
 * The fix for a model endpoint that is not set: what works on the command line (`--endpoint`, or
 * `modelEndpoint.url` in the `--config` file — the CLI never takes it from .vscode/settings.json) and
 * in VS Code (the setting).
 */
export function modelEndpointFix(example: string): string {
  return `pass --endpoint URL (or set modelEndpoint.url in the --config file; in VS Code: the setting spanproof.modelEndpoint.url), e.g. ${example}.`;
}
