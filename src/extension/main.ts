/**
 * VS Code entry point: adapts the editor to the core. Activation failures are caught and shown,
 * because VS Code would otherwise swallow them.
 */
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  try {
    context.subscriptions.push(
      vscode.commands.registerCommand('spanproof.validateGroundTruth', () => {
        void vscode.window.showInformationMessage('Spanproof: validation is not wired up yet.');
      }),
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`Spanproof failed to activate: ${e instanceof Error ? e.message : String(e)}`);
    throw e;
  }
}

export function deactivate(): void {}
