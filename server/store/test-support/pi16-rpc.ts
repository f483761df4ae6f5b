import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PI16_CLI, PI16_NODE } from './pi16-oracle.js';

/*
 * The real pi 1.6 CLI in RPC mode (`pi --mode rpc`, docs/rpc.md): one JSON command per stdin line,
 * responses and agent events as JSON lines on stdout. `command` resolves with the response to a
 * command; `prompt` also waits for the run it starts to end.
 */

type RpcLine = Record<string, unknown> & { type: string };

/** An entry as pi's `get_entries` gives it. */
export type RpcEntry = Record<string, unknown> & {
  type: string;
  id: string;
  parentId: string | null;
  message?: { role: string };
  targetId?: string;
  label?: string;
};

export class Pi16Rpc {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly seen: RpcLine[] = [];
  private readonly waiters: {
    test: (line: RpcLine) => boolean;
    resolve: (line: RpcLine) => void;
    reject: (error: Error) => void;
  }[] = [];
  private buffer = '';
  private next = 0;
  stderr = '';

  constructor(args: string[], opts: { cwd: string; agentDir: string }) {
    this.child = spawn(PI16_NODE, [PI16_CLI, '--mode', 'rpc', ...args], {
      cwd: opts.cwd,
      env: {
        ...process.env,
        PI_CODING_AGENT_DIR: opts.agentDir,
        PI_OFFLINE: '1',
        PI_SKIP_VERSION_CHECK: '1',
        PI_TELEMETRY: '0',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.take(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.child.on('close', () => {
      const error = new Error(`pi exited before answering; stderr: ${this.stderr}`);
      for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    });
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      const text = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as RpcLine;
      this.seen.push(line);
      for (const waiter of this.waiters.splice(0)) {
        if (waiter.test(line)) waiter.resolve(line);
        else this.waiters.push(waiter);
      }
    }
  }

  private wait(test: (line: RpcLine) => boolean, from = 0): Promise<RpcLine> {
    const found = this.seen.slice(from).find(test);
    if (found) return Promise.resolve(found);
    if (this.child.exitCode !== null) {
      return Promise.reject(new Error(`pi has exited; stderr: ${this.stderr}`));
    }
    return new Promise((resolve, reject) => this.waiters.push({ test, resolve, reject }));
  }

  /** Sends a command; resolves with pi's response, rejects on a failed one. */
  async command(command: Record<string, unknown>): Promise<RpcLine> {
    const id = `arbor-${++this.next}`;
    this.child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
    const response = await this.wait((line) => line.type === 'response' && line.id === id);
    if (response.success !== true) {
      throw new Error(`pi refused ${JSON.stringify(command)}: ${JSON.stringify(response)}`);
    }
    return response;
  }

  /** A prompt, run until pi has no automatic work left (retries, compaction) for it. */
  async prompt(message: string): Promise<void> {
    const from = this.seen.length;
    await this.command({ type: 'prompt', message });
    await this.wait((line) => line.type === 'agent_settled', from);
  }

  /** The session's entries and leaf, as pi has them now. */
  async entries(): Promise<{ entries: RpcEntry[]; leafId: string | null }> {
    const response = await this.command({ type: 'get_entries' });
    return response.data as { entries: RpcEntry[]; leafId: string | null };
  }

  /**
   * Runs an extension's slash command and waits until the session shows its effect (a command's
   * response comes before its work is done).
   */
  async slash(text: string, done: (entries: RpcEntry[], leafId: string | null) => boolean) {
    await this.command({ type: 'prompt', message: text });
    for (let i = 0; i < 400; i++) {
      const { entries, leafId } = await this.entries();
      if (done(entries, leafId)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`${text} had no effect; stderr: ${this.stderr}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('close', () => resolve());
      this.child.stdin.end();
      this.child.kill('SIGTERM');
    });
  }
}
