/**
 * An external retriever run as a command (issue #18, `--retriever-cmd`): started once (through the
 * shell, in the workspace folder), it gets one JSON line per question `{"id","question","k"}` on stdin,
 * then end-of-file, and writes one line `{"id","results":[...]}` per question on stdout, in any order.
 *
 * Limits: `timeoutMs` between two answers (from the start for the first; the per-question timeout of a
 * streaming command) and `totalTimeoutMs` for everything; when either passes, the command is stopped
 * (SIGTERM, SIGKILL after 2 s) and the unanswered questions fail with the reason. A question with no
 * answer when the command ends fails with the exit status and the end of stderr (the last 4 KB are
 * kept and shown). Lines that are not valid answers, unknown or repeated ids are reported as warnings.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cancelled } from '../net';
import { ANSWER_LINE_SCHEMA, issueText, type ExternalAnswer, type ExternalRequest } from './protocol';

export interface CommandOptions {
  /** Working directory (the workspace). */
  cwd: string;
  timeoutMs: number;
  totalTimeoutMs: number;
  signal?: AbortSignal;
  /** Called after each answer (progress). */
  onAnswer?: () => void;
}

export interface CommandOutcome {
  /** One entry per request id. */
  answers: Map<string, ExternalAnswer>;
  /** How the command ended when that explains missing answers (exit status, timeout, spawn error), with stderr's tail. */
  failure: string | null;
  warnings: string[];
}

const STDERR_KEEP = 4096;

/** Runs `command` over `requests`. Throws SpanproofError('cancelled') when `signal` aborts; never for a misbehaving command. */
export function runRetrieverCommand(command: string, requests: readonly ExternalRequest[], o: CommandOptions): Promise<CommandOutcome> {
  return new Promise((resolvePromise, reject) => {
    const want = new Set(requests.map((r) => r.id));
    const answers = new Map<string, ExternalAnswer>();
    const warnings: string[] = [];
    let stderr = '';
    let stopReason: string | null = null;
    let aborted = false;
    // Its own process group (POSIX), so stopping it also stops what the shell started.
    const group = process.platform !== 'win32';
    const child = spawn(command, { shell: true, cwd: o.cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, detached: group });
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (group && child.pid) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch { /* already gone */ }
    };
    let closed = false;
    const stop = (reason: string) => {
      if (stopReason || closed) return;
      stopReason = reason;
      kill('SIGTERM');
      setTimeout(() => { if (!closed) kill('SIGKILL'); }, 2000).unref();
    };
    let idle = setTimeout(() => stop(`no answer within ${o.timeoutMs} ms (external.timeoutMs)`), o.timeoutMs);
    const total = setTimeout(() => stop(`not finished within ${o.totalTimeoutMs} ms (external.totalTimeoutMs)`), o.totalTimeoutMs);
    const onAbort = () => { aborted = true; stop('cancelled'); };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => { stderr = (stderr + d).slice(-STDERR_KEEP); });
    child.stdin.on('error', () => { /* the command closed stdin early: its exit status tells why */ });
    child.stdin.end(requests.map((r) => JSON.stringify(r)).join('\n') + (requests.length ? '\n' : ''));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    let lineNo = 0;
    lines.on('line', (line) => {
      lineNo++;
      if (!line.trim()) return;
      let parsed: unknown;
      try { parsed = JSON.parse(line); } catch { return void warnings.push(`stdout line ${lineNo} is not JSON: ${line.slice(0, 120)}`); }
      const r = ANSWER_LINE_SCHEMA.safeParse(parsed);
      if (!r.success) {
        const id = (parsed as { id?: unknown })?.id;
        if (typeof id === 'string' && want.has(id) && !answers.has(id)) answers.set(id, { error: `invalid answer (${issueText(r.error)})` });
        return void warnings.push(`stdout line ${lineNo} is not an answer {"id","results":[...]}: ${issueText(r.error)}`);
      }
      const { id, results } = r.data;
      if (!want.has(id)) return void warnings.push(`stdout line ${lineNo} answers unknown question id "${id.slice(0, 80)}"`);
      if (answers.has(id)) return void warnings.push(`stdout line ${lineNo} answers question "${id}" again; the first answer is kept`);
      answers.set(id, { items: results });
      clearTimeout(idle);
      idle = setTimeout(() => stop(`no answer within ${o.timeoutMs} ms (external.timeoutMs)`), o.timeoutMs);
      o.onAnswer?.();
    });
    let spawnError: string | null = null;
    child.on('error', (e) => { spawnError = e.message; });
    child.on('close', (code, sig) => {
      closed = true;
      clearTimeout(idle);
      clearTimeout(total);
      o.signal?.removeEventListener('abort', onAbort);
      if (aborted) return reject(cancelled());
      const ended = spawnError ? `could not be started (${spawnError})` : stopReason ? `was stopped: ${stopReason}` : code !== 0 ? `exited with ${sig ? `signal ${sig}` : `status ${code}`}` : null;
      const missing = requests.filter((r) => !answers.has(r.id));
      const why = ended ?? 'ended without answering';
      const tail = stderr.trim() ? `; stderr: ${stderr.trim().slice(-1000)}` : '';
      for (const r of missing) answers.set(r.id, { error: `the command ${why} before answering this question` });
      const failure = ended || missing.length ? `the command ${why}${missing.length ? ` (${missing.length} of ${requests.length} questions unanswered)` : ''}${tail}` : null;
      resolvePromise({ answers, failure, warnings });
    });
  });
}
