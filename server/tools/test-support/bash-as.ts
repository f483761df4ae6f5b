import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BashToolOptions } from '../bash-launch.js';

/*
 * Runs the bash tool in a child process as the server's own user or as `nobody`, as a real
 * server would run it under either.
 *
 * `nobody` must be able to reach what it runs, wherever the checkout is: a clone in a private
 * folder (mode 0700, as `mktemp -d` makes, or `/root`) is closed to it. So the tool process is
 * bundled once per test process into a world-readable temporary folder, and the Node that runs it
 * is linked (or copied) there too when `nobody` cannot reach the one running the tests (a Node
 * inside the checkout, say).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const childSource = path.join(here, 'bash-child.ts');

/** Whether `nobody` (any other user) can reach and run `file`: every folder above it searchable. */
function reachableByOthers(file: string): boolean {
  try {
    if ((fs.statSync(file).mode & 0o005) !== 0o005) return false;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if ((fs.statSync(dir).mode & 0o001) === 0) return false;
      if (dir === path.dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

let program: Promise<{ node: string; script: string }> | undefined;

/** The bundled tool process and a Node to run it, both where any user can reach them. */
function childProgram(): Promise<{ node: string; script: string }> {
  program ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bash-child-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    fs.chmodSync(dir, 0o755);
    const script = path.join(dir, 'bash-child.mjs');
    await build({
      entryPoints: [childSource],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      // The bundle's CommonJS dependencies ask for `require`, which an ES module lacks.
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
      logLevel: 'silent',
    });
    fs.chmodSync(script, 0o644);
    let node = process.execPath;
    // A Node under the temporary folder is beside the tool process too: a wrapper that hides
    // the temporary folder binds only this one (bash-sandbox.test.ts).
    const underTmp = !path.relative(os.tmpdir(), node).startsWith('..');
    if (!reachableByOthers(node) || underTmp) {
      const copy = path.join(dir, 'node');
      try {
        fs.linkSync(node, copy);
      } catch {
        fs.copyFileSync(node, copy);
      }
      fs.chmodSync(copy, 0o755);
      node = copy;
    }
    return { node, script };
  })();
  return program;
}

/** The folder that holds the bundled tool process (and its Node, if copied), for a wrapper to bind. */
export async function toolProcessFolder(): Promise<string> {
  return path.dirname((await childProgram()).script);
}

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

export async function bashAs(
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
  const { node, script } = await childProgram();
  const argv = [...wrap, node, script, JSON.stringify(input)];
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
