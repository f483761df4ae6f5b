import { execFile } from 'node:child_process';
import path from 'node:path';

/*
 * The real `git`, run with its configuration isolated: no system or user config (so no hooks,
 * filters, fsmonitor, credential helpers, autocrlf or pager a user set up reach Arbor's shadow
 * repositories), in the background (a child process; the event loop never waits on it), with a
 * timeout and a bound on what it prints.
 */

/** Settings forced on every command, whatever any config says. */
const FORCED = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.symlinks=true',
  'core.quotePath=false',
  'core.untrackedCache=false',
  'commit.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
].flatMap((setting) => ['-c', setting]);

export interface GitCall {
  gitDir: string;
  workTree?: string;
  /** The index to use (one per session, so sessions never wait on one index lock). */
  indexFile?: string;
  timeoutMs?: number;
  input?: string;
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    message: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

const MAX_OUTPUT = 256 * 1024 * 1024;

/** Runs `git <args>` on a shadow repository; resolves to its standard output. */
export function git(args: readonly string[], call: GitCall): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_DIR: call.gitDir,
    ...(call.workTree ? { GIT_WORK_TREE: call.workTree } : {}),
    ...(call.indexFile ? { GIT_INDEX_FILE: call.indexFile } : {}),
    GIT_AUTHOR_NAME: 'Arbor',
    GIT_AUTHOR_EMAIL: 'arbor@localhost',
    GIT_COMMITTER_NAME: 'Arbor',
    GIT_COMMITTER_EMAIL: 'arbor@localhost',
    LC_ALL: 'C',
  };
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...FORCED, ...args],
      {
        env,
        // Pathspecs are read from the work tree's top; other commands run beside the repository.
        cwd: call.workTree ?? path.dirname(call.gitDir),
        timeout: call.timeoutMs ?? 120_000,
        maxBuffer: MAX_OUTPUT,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT'
            ? 'git is not installed (Debian: apt-get install git)'
            : (stderr.trim().split('\n').at(-1) ?? error.message);
        reject(new GitError(args, stderr, `git ${args[0]}: ${why}`));
      },
    );
    if (call.input !== undefined) child.stdin?.end(call.input);
  });
}
