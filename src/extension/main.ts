/**
 * VS Code entry point: adapts the editor to the core. Activation failures are caught and shown,
 * because VS Code would otherwise swallow them. Everything registered goes to `context.subscriptions`.
 */
import '../core/ortEnv'; // first: disables onnxruntime's telemetry before it loads
import * as vscode from 'vscode';
import { Spanproof } from './spanproof';

let instance: Spanproof | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<Spanproof | undefined> {
  try {
    instance = new Spanproof(context);
    context.subscriptions.push(instance);
    await instance.start();
    return instance;
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(`Spanproof failed to activate: ${msg}`);
    console.error('Spanproof failed to activate', e);
    return undefined;
  }
}

export function deactivate(): void {
  instance = undefined;
}
