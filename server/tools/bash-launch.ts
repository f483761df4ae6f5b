import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkUserNamespace, hiddenFiles, hiddenPaths } from './bash-sandbox.js';
import { createPidsCgroup, pidsCgroupAvailable, type PidsCgroup } from './pids-cgroup.js';
import { DEFAULT_SANDBOX_LIMITS, sandboxArgs, type SandboxLimits } from './sandbox-command.js';
import { unixSocketFilter } from './sandbox-seccomp.js';
import {
  newToolOutputDir,
  OUTPUT_LIMITS,
  toolOutputRoot,
  type OutputLimits,
} from './tool-output-dir.js';
import { openWorkspaceRoot } from './workspace-path.js';

/*
 * How the bash tool starts one command: plain `bash -c` when unsandboxed, else bubblewrap with
 * its arguments (sandbox-command.ts), the seccomp filter and the hidden files on descriptors of
 * their own, the workspace opened and checked, and a pids cgroup around it all when the server
 * runs as root. Running it, its output and its limits in time are bash-tool.ts's.
 */

export type BashMode = 'sandboxed' | 'unsandboxed';

export interface BashToolOptions {
  mode: BashMode;
  /** Network access inside the sandbox (default: none). */
  network?: boolean;
  /** Where bwrap is; found on PATH when absent. */
  bwrapPath?: string | null;
  /** Arbor's data folder, hidden from the sandbox. */
  dataDir?: string;
  /** A relocated session folder, hidden from the sandbox. */
  sessionDir?: string;
  /** Every configured workspace; those outside this one are hidden from the sandbox. */
  workspaces?: string[];
  /** The server user's home, hidden from the sandbox; `os.homedir()` when absent. */
  homeDir?: string;
  /** Sandbox limits; the defaults where absent. */
  limits?: Partial<SandboxLimits>;
  /** Folders of container secrets to hide; /run/secrets and /var/run/secrets when absent. */
  secretDirs?: string[];
  /** Host files holding secrets, hidden from the sandbox; wellKnownSecretFiles() when absent. */
  secretFiles?: string[];
  /** The timeout when the model gives none, and the longest it may ask for, in seconds. */
  timeouts?: { defaultSeconds?: number; maxSeconds?: number };
  /** What the full-output logs may hold; OUTPUT_LIMITS where absent. */
  outputLimits?: Partial<OutputLimits>;
}

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

/** How one command is started. */
interface Launch {
  file: string;
  args: string[];
  /** Holds the command's processes when the server runs as root; removed after the command. */
  cgroup?: PidsCgroup;
  /** The seccomp filter, written to the child's descriptor 3 for bwrap to read. */
  seccomp?: Buffer;
  /** The workspace, opened and checked; the child's descriptor 4; closed here once it started. */
  workspaceFd?: number;
  /** How many hidden files bwrap reads from ended pipes at descriptors 5, 6, … */
  hiddenFileCount?: number;
}

/** The descriptors bwrap reads the seccomp filter from and binds the workspace from. */
export const SECCOMP_FD = 3;
const WORKSPACE_FD = 4;
/** The first of the ended pipes bwrap reads each hidden file's (empty) content from. */
export const HIDE_FILES_FD = 5;

/** Root is exempt from RLIMIT_NPROC; only a pids cgroup bounds its processes. */
const runsAsRoot = () => process.getuid?.() === 0;

/** True when the sandbox's process limit holds for this server. */
export function processLimitHolds(): boolean {
  return !runsAsRoot() || pidsCgroupAvailable();
}

/** One bash tool's state: its private full-output folder, made on first need. */
export class BashRunner {
  private outputDir: string | undefined;
  private readonly bwrap: string | null;
  private readonly limits: SandboxLimits;
  readonly outputLimits: OutputLimits;

  constructor(
    readonly workspace: string,
    readonly options: BashToolOptions,
  ) {
    this.bwrap = options.bwrapPath === undefined ? findOnPath('bwrap') : options.bwrapPath;
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    this.outputLimits = { ...OUTPUT_LIMITS, ...options.outputLimits };
  }

  /** Removes this tool's log folder (its session has closed). */
  dispose(): void {
    if (this.outputDir) fs.rmSync(this.outputDir, { recursive: true, force: true });
    this.outputDir = undefined;
  }

  /** This tool's log folder (made again if something removed it). */
  logDir(): string {
    if (!this.outputDir || !fs.statSync(this.outputDir, { throwIfNoEntry: false })?.isDirectory())
      this.outputDir = newToolOutputDir();
    return this.outputDir;
  }

  async launch(command: string): Promise<Launch> {
    if (this.options.mode === 'unsandboxed') return { file: '/bin/bash', args: ['-c', command] };
    const bwrap = this.bwrap;
    if (!bwrap)
      throw new Error(
        'bash is unavailable: the sandbox (bubblewrap) is not installed on this server',
      );
    await checkUserNamespace(bwrap);
    // Without a log folder the command still runs; only its full output cannot be kept.
    let logDir: string | undefined;
    try {
      logDir = this.logDir();
    } catch {
      logDir = undefined;
    }
    const hide = hiddenPaths({
      workspace: this.workspace,
      homeDir: this.options.homeDir ?? os.homedir(),
      ...(logDir !== undefined ? { outputRoot: toolOutputRoot() } : {}),
      ...(this.options.dataDir !== undefined ? { dataDir: this.options.dataDir } : {}),
      ...(this.options.sessionDir !== undefined ? { sessionDir: this.options.sessionDir } : {}),
      ...(this.options.workspaces !== undefined ? { workspaces: this.options.workspaces } : {}),
      ...(this.options.secretDirs !== undefined ? { secretDirs: this.options.secretDirs } : {}),
    });
    const hideFiles = hiddenFiles(this.workspace, this.options.secretFiles);
    const seccomp = unixSocketFilter();
    const args = sandboxArgs(
      {
        workspace: this.workspace,
        hide,
        hideFiles,
        hideFilesFd: HIDE_FILES_FD,
        readOnly: logDir !== undefined ? [logDir] : [],
        network: this.options.network ?? false,
        limits: this.limits,
        ...(seccomp ? { seccompFd: SECCOMP_FD } : {}),
        workspaceFd: WORKSPACE_FD,
      },
      command,
    );
    const workspaceFd = openWorkspaceRoot(this.workspace);
    let cgroup: PidsCgroup | undefined;
    try {
      cgroup = runsAsRoot() ? createPidsCgroup(this.limits.processes) : undefined;
    } catch (error) {
      fs.closeSync(workspaceFd);
      throw error;
    }
    const extra = {
      workspaceFd,
      hiddenFileCount: hideFiles.length,
      ...(seccomp ? { seccomp } : {}),
    };
    if (!cgroup) return { file: bwrap, args, ...extra };
    // The shell joins the cgroup, then becomes bwrap: every process of the command starts inside.
    return {
      file: '/bin/sh',
      args: ['-c', 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, bwrap, ...args],
      cgroup,
      ...extra,
    };
  }
}
