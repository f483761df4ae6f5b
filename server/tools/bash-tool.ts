import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import stream from 'node:stream';
import { z } from 'zod';
import type { ToolResultValue } from './tool-types.js';
import { DEFAULT_SANDBOX_LIMITS, describeBytes } from './sandbox-command.js';
import {
  BashRunner,
  HIDE_FILES_FD,
  processLimitHolds,
  SECCOMP_FD,
  type BashToolOptions,
} from './bash-launch.js';
import { defineTool } from './tool-args.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  truncateTail,
  type Truncation,
} from './truncate.js';
import { makeRoom } from './tool-output-dir.js';

/*
 * bash: one command in the workspace, output streamed as it comes, the whole process tree killed
 * on abort or timeout (10 minutes unless the model asks for another, at most an hour). Sandboxed
 * with bubblewrap when asked: bash-launch.ts starts it, sandbox-command.ts holds its arguments.
 * The sandbox is an unprivileged user namespace without capabilities. The filesystem is
 * read-only except the workspace and a bounded private /tmp. Arbor's data folder, the other
 * workspaces, the home folder and container secrets are hidden. There is no network unless
 * allowed, a PID namespace of its own so nothing outlives the call, and hard limits on processes,
 * memory and file size. The environment is an allowlist, so server secrets (API keys) never reach
 * a command and so never reach a session file.
 */

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

/**
 * The server's PATH without the folders npm puts first when it starts Arbor (`npm start` adds every
 * `node_modules/.bin` above the project): the agent's commands get the machine's own `node`, `npx`
 * and tools, not the Node and binaries Arbor brought for itself.
 */
export function commandPath(serverPath: string): string {
  return serverPath
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !/(^|[\\/])node_modules[\\/]\.bin[\\/]?$/.test(dir))
    .join(path.delimiter);
}

/** A command the model gives no timeout ends after this long. */
export const DEFAULT_TIMEOUT_SECONDS = 600;
/** The longest timeout a command gets, whatever the model asks. */
export const MAX_TIMEOUT_SECONDS = 3600;

const schema = z.strictObject({
  command: z.string().min(1).describe('Bash command to execute'),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe(
      `Timeout in seconds (optional; default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS})`,
    ),
});

function sandboxNote(options: BashToolOptions): string {
  if (options.mode !== 'sandboxed') return '';
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  const processes = processLimitHolds() ? `${limits.processes} processes, ` : '';
  return (
    ` Runs in a sandbox: only the workspace is writable, /tmp is private (${describeBytes(limits.tmpBytes)})` +
    `${options.network ? '' : ', there is no network'}, and Arbor's data folder, other workspaces, the home folder and /run/secrets are hidden.` +
    ` Limits: ${processes}${describeBytes(limits.memoryBytes)} of memory per process, ${describeBytes(limits.fileBytes)} per file.`
  );
}

export function createBashTool(workspace: string, options: BashToolOptions) {
  const runner = new BashRunner(workspace, options);
  const defaultTimeout = options.timeouts?.defaultSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const maxTimeout = options.timeouts?.maxSeconds ?? MAX_TIMEOUT_SECONDS;
  const tool = defineTool({
    name: 'bash',
    description: `Execute a bash command in the workspace. Returns stdout and stderr. Output is truncated to the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first); the full output is then saved to a file. Optionally provide a timeout in seconds (default ${defaultTimeout}, at most ${maxTimeout}).${sandboxNote(options)}`,
    schema,
    execute: (args, { signal, onUpdate }) =>
      runCommand(runner, args.command, args.timeout, signal, onUpdate),
  });
  /** The editor's `!command`: the same workspace, sandbox, limits and truncation as the tool. */
  const runShell = (command: string, signal: AbortSignal): Promise<CommandOutcome> =>
    executeCommand(runner, command, undefined, signal, () => undefined);
  return Object.assign(tool, { runShell, dispose: () => runner.dispose() });
}

/** What one command left: its output's tail, and how it ended. */
export interface CommandOutcome {
  /** The tail of the output (see truncate.ts), without any note. */
  output: string;
  /** Undefined when the command was cancelled, timed out or never reported one. */
  exitCode: number | undefined;
  ended: 'aborted' | 'timeout' | undefined;
  timeoutSecs: number;
  truncation: Truncation;
  /** The whole output, kept when the tail is truncated and the file could be written. */
  fullOutputPath: string | undefined;
  /** The file holds only the output's first `commandBytes` (tool-output-dir.ts). */
  fullOutputCut: boolean;
}

async function runCommand(
  runner: BashRunner,
  command: string,
  requestedTimeout: number | undefined,
  signal: AbortSignal,
  onUpdate: (partial: ToolResultValue) => void,
): Promise<ToolResultValue> {
  const outcome = await executeCommand(runner, command, requestedTimeout, signal, (text) =>
    onUpdate({ content: [{ type: 'text', text }], details: {} }),
  );
  const { truncation, fullOutputPath, fullOutputCut, ended, timeoutSecs } = outcome;
  let output = outcome.output;
  let details: Record<string, unknown> | undefined;
  if (truncation.truncated) {
    details = { truncation, fullOutputPath };
    const endLine = truncation.totalLines;
    const startLine = endLine - truncation.outputLines + 1;
    const full = !fullOutputPath
      ? 'The full output could not be saved'
      : fullOutputCut
        ? `The first ${describeBytes(runner.outputLimits.commandBytes)} of the output: ${fullOutputPath}`
        : `Full output: ${fullOutputPath}`;
    if (truncation.lastLinePartial)
      output += `\n\n[Showing last ${formatSize(truncation.outputBytes)} of line ${endLine}. ${full}]`;
    else if (truncation.truncatedBy === 'lines')
      output += `\n\n[Showing lines ${startLine}-${endLine} of ${truncation.totalLines}. ${full}]`;
    else
      output += `\n\n[Showing lines ${startLine}-${endLine} of ${truncation.totalLines} (${formatSize(DEFAULT_MAX_BYTES)} limit). ${full}]`;
  }
  const withStatus = (status: string) => (output ? `${output}\n\n${status}` : status);
  if (ended === 'aborted') throw new Error(withStatus('Command aborted'));
  if (ended === 'timeout')
    throw new Error(withStatus(`Command timed out after ${timeoutSecs} seconds`));
  if (outcome.exitCode !== 0)
    throw new Error(withStatus(`Command exited with code ${outcome.exitCode ?? 'unknown'}`));
  return {
    content: [{ type: 'text', text: output || '(no output)' }],
    ...(details ? { details } : {}),
  };
}

/**
 * Runs one command in the runner's workspace and sandbox, with the tool's limits and truncation.
 * Rejects only when the command could not start; a failing, cancelled or timed-out command
 * resolves with how it ended.
 */
export async function executeCommand(
  runner: BashRunner,
  command: string,
  requestedTimeout: number | undefined,
  signal: AbortSignal,
  onOutput: (tail: string) => void,
): Promise<CommandOutcome> {
  if (signal.aborted) throw new Error('Command aborted');
  const {
    file,
    args,
    cgroup,
    seccomp,
    workspaceFd,
    hiddenFileCount = 0,
  } = await runner.launch(command);
  const closeWorkspaceFd = () => {
    if (workspaceFd !== undefined) fs.closeSync(workspaceFd);
  };
  const timeouts = runner.options.timeouts;
  const timeoutSecs = Math.min(
    requestedTimeout ?? timeouts?.defaultSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    timeouts?.maxSeconds ?? MAX_TIMEOUT_SECONDS,
  );
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      cgroup?.remove();
      closeWorkspaceFd();
      reject(new Error('Command aborted'));
      return;
    }
    const env: Record<string, string> = { TERM: 'dumb' };
    for (const name of ENV_ALLOWLIST) {
      const value = process.env[name];
      if (value !== undefined) env[name] = name === 'PATH' ? commandPath(value) : value;
    }
    let child;
    try {
      child = spawn(file, args, {
        cwd: runner.workspace,
        env,
        detached: true,
        stdio:
          workspaceFd === undefined
            ? ['ignore', 'pipe', 'pipe']
            : [
                'ignore',
                'pipe',
                'pipe',
                seccomp ? 'pipe' : 'ignore',
                workspaceFd,
                ...Array.from({ length: hiddenFileCount }, () => 'pipe' as const),
              ],
      });
    } finally {
      // The child has its own copy now.
      closeWorkspaceFd();
    }
    // bwrap reads each hidden file's content (none) to its end.
    for (let i = 0; i < hiddenFileCount; i++) {
      const pipe = child.stdio[HIDE_FILES_FD + i] as stream.Writable;
      pipe.on('error', () => undefined);
      pipe.end();
    }
    // bwrap reads the filter to its end before it starts the command.
    if (seccomp) {
      const filterPipe = child.stdio[SECCOMP_FD] as stream.Writable;
      filterPipe.on('error', () => undefined);
      filterPipe.end(seccomp);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let lines = 0;
    let fullOutputPath: string | undefined;
    let fullOutput: fs.WriteStream | undefined;
    let updateTimer: NodeJS.Timeout | undefined;
    let ended: 'aborted' | 'timeout' | undefined;
    let fullOutputFailed = false;
    /** Bytes written to the full-output file, and whether the rest was dropped. */
    let fullOutputBytes = 0;
    let fullOutputCut = false;
    const { commandBytes, sessionBytes } = runner.outputLimits;

    /**
     * The file that keeps the whole output once it outgrows the tail. A file that cannot be made
     * or written (disk full, no permission) costs only the full copy, never the command or the
     * server: the result then says so instead of naming it.
     */
    const openFullOutput = (): fs.WriteStream | undefined => {
      if (fullOutputFailed) return undefined;
      try {
        const dir = runner.logDir();
        makeRoom(dir, commandBytes, sessionBytes);
        const file = path.join(
          dir,
          `bash-${Date.now()}-${crypto.randomBytes(4).toString('hex')}.log`,
        );
        // A new file only (never through a link someone left there), readable by this user only.
        const stream = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
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
    /** Adds to the full-output file up to its limit, then notes the cut once. */
    const keepFull = (data: Buffer) => {
      if (!fullOutput || fullOutputCut) return;
      const room = commandBytes - fullOutputBytes;
      if (data.length <= room) {
        fullOutput.write(data);
        fullOutputBytes += data.length;
        return;
      }
      fullOutput.write(data.subarray(0, room));
      fullOutput.write(
        `\n[Arbor kept only the first ${describeBytes(commandBytes)} of this output.]\n`,
      );
      fullOutputBytes = commandBytes;
      fullOutputCut = true;
    };
    const onData = (data: Buffer) => {
      chunks.push(data);
      total += data.length;
      for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) lines++;
      if ((total > DEFAULT_MAX_BYTES || lines >= DEFAULT_MAX_LINES) && !fullOutput) {
        fullOutput = openFullOutput();
        for (const chunk of chunks) keepFull(chunk);
      } else keepFull(data);
      // Keep only what the tail needs in memory; the file has the rest.
      while (chunks.length > 1 && total - chunks[0]!.length > DEFAULT_MAX_BYTES * 2)
        total -= chunks.shift()!.length;
      if (!updateTimer)
        updateTimer = setTimeout(() => {
          updateTimer = undefined;
          onOutput(snapshot().text);
        }, UPDATE_INTERVAL_MS);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);

    const onAbort = () => {
      ended ??= 'aborted';
      killTree();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      ended ??= 'timeout';
      killTree();
    }, timeoutSecs * 1000);

    let finished = false;
    const finish = (code: number | null, spawnError?: Error) => {
      if (finished) return;
      finished = true;
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      if (updateTimer) clearTimeout(updateTimer);
      // Stragglers that kept a pipe open (background jobs) go with their group.
      killTree();
      cgroup?.remove();
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
      resolve({
        output: text,
        exitCode: ended === undefined && code !== null ? code : undefined,
        ended,
        timeoutSecs,
        truncation,
        fullOutputPath: truncation.truncated ? fullOutputPath : undefined,
        fullOutputCut,
      });
    };
    child.once('error', (error) => finish(null, error));
    child.once('close', (code) => finish(code));
  });
}
