import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import stream from 'node:stream';
import { z } from 'zod';
import type { ToolResultValue } from '../agent/agent-types.js';
import { defineTool } from './tool-args.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  truncateTail,
  type Truncation,
} from './truncate.js';

/*
 * bash: one command in the workspace, output streamed as it comes, the whole process tree killed
 * on abort or timeout. Sandboxed with bubblewrap when asked: the filesystem read-only except the
 * workspace and a private /tmp, no network unless allowed, its own PID namespace so nothing
 * outlives the call. The environment is an allowlist, so server secrets (API keys) never reach a
 * command and so never reach a session file.
 */

export type BashMode = 'sandboxed' | 'unsandboxed';

export interface BashToolOptions {
  mode: BashMode;
  /** Network access inside the sandbox (default: none). */
  network?: boolean;
  /** Where bwrap is; found on PATH when absent. */
  bwrapPath?: string | null;
}

const ENV_ALLOWLIST = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'USER',
  'LOGNAME',
  'SHELL',
];
const UPDATE_INTERVAL_MS = 50;
/** setTimeout's longest wait; a longer timeout would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function findOnPath(name: string, envPath = process.env.PATH ?? ''): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Where full outputs of truncated commands are kept, per workspace. */
export function outputDirFor(workspace: string): string {
  const hash = crypto.createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), 'arbor-tool-output', hash);
}

function commandLine(
  workspace: string,
  command: string,
  options: BashToolOptions,
  bwrap: string | null,
): { file: string; args: string[] } {
  if (options.mode === 'unsandboxed') return { file: '/bin/bash', args: ['-c', command] };
  if (!bwrap)
    throw new Error(
      'bash is unavailable: the sandbox (bubblewrap) is not installed on this server',
    );
  const outputDir = outputDirFor(workspace);
  fs.mkdirSync(outputDir, { recursive: true });
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    workspace,
    workspace,
    '--ro-bind',
    outputDir,
    outputDir,
    '--unshare-pid',
    ...(options.network ? [] : ['--unshare-net']),
    '--die-with-parent',
    '--new-session',
    '--chdir',
    workspace,
    '--',
    '/bin/bash',
    '-c',
    command,
  ];
  return { file: bwrap, args };
}

const schema = z.strictObject({
  command: z.string().min(1).describe('Bash command to execute'),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe('Timeout in seconds (optional, no default timeout)'),
});

export function createBashTool(workspace: string, options: BashToolOptions) {
  const bwrap = options.bwrapPath === undefined ? findOnPath('bwrap') : options.bwrapPath;
  const sandboxNote =
    options.mode === 'sandboxed'
      ? ` Runs in a sandbox: only the workspace is writable, /tmp is private${options.network ? '' : ', and there is no network'}.`
      : '';
  return defineTool({
    name: 'bash',
    description: `Execute a bash command in the workspace. Returns stdout and stderr. Output is truncated to the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first); the full output is then saved to a file. Optionally provide a timeout in seconds.${sandboxNote}`,
    schema,
    execute: (args, { signal, onUpdate }) =>
      runCommand(workspace, args.command, args.timeout, options, bwrap, signal, onUpdate),
  });
}

function runCommand(
  workspace: string,
  command: string,
  timeoutSecs: number | undefined,
  options: BashToolOptions,
  bwrap: string | null,
  signal: AbortSignal,
  onUpdate: (partial: ToolResultValue) => void,
): Promise<ToolResultValue> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('Command aborted'));
      return;
    }
    const { file, args } = commandLine(workspace, command, options, bwrap);
    const env: Record<string, string> = { TERM: 'dumb' };
    for (const name of ENV_ALLOWLIST) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    const child = spawn(file, args, {
      cwd: workspace,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let total = 0;
    let lines = 0;
    let fullOutputPath: string | undefined;
    let fullOutput: fs.WriteStream | undefined;
    let updateTimer: NodeJS.Timeout | undefined;
    let ended: 'aborted' | 'timeout' | undefined;
    let fullOutputFailed = false;

    /**
     * The file that keeps the whole output once it outgrows the tail. A file that cannot be made
     * or written (disk full, no permission) costs only the full copy, never the command or the
     * server: the result then says so instead of naming it.
     */
    const openFullOutput = (): fs.WriteStream | undefined => {
      if (fullOutputFailed) return undefined;
      try {
        const dir = outputDirFor(workspace);
        fs.mkdirSync(dir, { recursive: true });
        const file = path.join(
          dir,
          `bash-${Date.now()}-${crypto.randomBytes(4).toString('hex')}.log`,
        );
        const stream = fs.createWriteStream(file);
        stream.on('error', () => {
          fullOutputFailed = true;
          fullOutputPath = undefined;
        });
        fullOutputPath = file;
        return stream;
      } catch {
        fullOutputFailed = true;
        return undefined;
      }
    };

    const snapshot = (): { text: string; truncation: Truncation } => {
      const truncation = truncateTail(Buffer.concat(chunks).toString('utf8'));
      return { text: truncation.content, truncation };
    };
    const killTree = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const onData = (data: Buffer) => {
      chunks.push(data);
      total += data.length;
      for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) lines++;
      if ((total > DEFAULT_MAX_BYTES || lines >= DEFAULT_MAX_LINES) && !fullOutput) {
        fullOutput = openFullOutput();
        for (const chunk of chunks) fullOutput?.write(chunk);
      } else if (fullOutput) fullOutput.write(data);
      // Keep only what the tail needs in memory; the file has the rest.
      while (chunks.length > 1 && total - chunks[0]!.length > DEFAULT_MAX_BYTES * 2)
        total -= chunks.shift()!.length;
      if (!updateTimer)
        updateTimer = setTimeout(() => {
          updateTimer = undefined;
          onUpdate({ content: [{ type: 'text', text: snapshot().text }], details: {} });
        }, UPDATE_INTERVAL_MS);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);

    const onAbort = () => {
      ended ??= 'aborted';
      killTree();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const timer =
      timeoutSecs !== undefined && timeoutSecs * 1000 <= MAX_TIMER_MS
        ? setTimeout(() => {
            ended ??= 'timeout';
            killTree();
          }, timeoutSecs * 1000)
        : undefined;

    let finished = false;
    const finish = (code: number | null, spawnError?: Error) => {
      if (finished) return;
      finished = true;
      signal.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
      if (updateTimer) clearTimeout(updateTimer);
      // Stragglers that kept a pipe open (background jobs) go with their group.
      killTree();
      if (spawnError) {
        reject(new Error(`Could not run bash: ${spawnError.message}`));
        return;
      }
      // The full-output file is complete (or has failed) before the result names it.
      if (fullOutput) stream.finished(fullOutput.end(), () => settle(code));
      else settle(code);
    };
    const settle = (code: number | null) => {
      const { text, truncation } = snapshot();
      let output = text;
      let details: Record<string, unknown> | undefined;
      if (truncation.truncated) {
        details = { truncation, fullOutputPath };
        const endLine = truncation.totalLines;
        const startLine = endLine - truncation.outputLines + 1;
        const full = fullOutputPath
          ? `Full output: ${fullOutputPath}`
          : 'The full output could not be saved';
        if (truncation.lastLinePartial)
          output += `\n\n[Showing last ${formatSize(truncation.outputBytes)} of line ${endLine}. ${full}]`;
        else if (truncation.truncatedBy === 'lines')
          output += `\n\n[Showing lines ${startLine}-${endLine} of ${truncation.totalLines}. ${full}]`;
        else
          output += `\n\n[Showing lines ${startLine}-${endLine} of ${truncation.totalLines} (${formatSize(DEFAULT_MAX_BYTES)} limit). ${full}]`;
      }
      const withStatus = (status: string) => (output ? `${output}\n\n${status}` : status);
      if (ended === 'aborted') reject(new Error(withStatus('Command aborted')));
      else if (ended === 'timeout')
        reject(new Error(withStatus(`Command timed out after ${timeoutSecs} seconds`)));
      else if (code !== 0)
        reject(new Error(withStatus(`Command exited with code ${code ?? 'unknown'}`)));
      else
        resolve({
          content: [{ type: 'text', text: output || '(no output)' }],
          ...(details ? { details } : {}),
        });
    };
    child.once('error', (error) => finish(null, error));
    child.once('close', (code) => finish(code));
  });
}
