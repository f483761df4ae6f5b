import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BashToolOptions } from '../bash-launch.js';

/*
 * Runs the bash tool in a child process as the server's own user or as `nobody`, as a real
 * server would run it under either.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../node_modules/.bin/tsx');
const child = path.join(here, 'bash-child.ts');

export type Identity = 'server user' | 'nobody';

/** Who a test can run the tool as here: root can also be nobody; anyone else is only itself. */
export const identities: Identity[] =
  process.getuid?.() === 0 ? ['server user', 'nobody'] : ['server user'];

/** nobody's uid and gid, for files a test gives it. */
export function nobodyIds(): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('nobody:'));
  const [, , uid, gid] = (line ?? 'nobody:x:65534:65534').split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Makes `dir` (and what is inside) belong to whoever `who` is. */
export function giveTo(who: Identity, dir: string): void {
  if (who !== 'nobody') return;
  const { uid, gid } = nobodyIds();
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    fs.lchownSync(path.join(dir, entry), uid, gid);
}

export interface ChildResult {
  ok: boolean;
  text: string;
  details?: { fullOutputPath?: string };
  /** The tool's description, as the model sees it. */
  description: string;
  /** The full-output file, seen by the tool process before it exited. */
  log?: {
    lines: number;
    mode: number;
    folders: { path: string; mode: number; uid: number; isDirectory: boolean }[];
  };
}

export function bashAs(
  who: Identity,
  input: {
    workspace: string;
    options: BashToolOptions;
    command: string;
    timeout?: number;
    tmpdir?: string;
  },
  env: Record<string, string> = {},
  /** A command line the tool process runs under (e.g. a sandbox without user namespaces). */
  wrap: string[] = [],
): Promise<ChildResult> {
  const argv = [...wrap, tsx, child, JSON.stringify(input)];
  const [file, args] =
    who === 'nobody' ? ['runuser', ['-u', 'nobody', '--', ...argv]] : [argv[0]!, argv.slice(1)];
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', ...env },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1);
        if (!line) {
          reject(new Error(`the tool process printed nothing: ${error?.message ?? ''} ${stderr}`));
          return;
        }
        resolve(JSON.parse(line) as ChildResult);
      },
    );
  });
}
