import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * The real `arbor` command line in a child process (`node --import tsx` on the CLI's sources), for
 * tests that start servers and user commands as an operator does.
 */

let runner: string | undefined;

function runnerFile(): string {
  if (runner && fs.existsSync(runner)) return runner;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-cli-'));
  runner = path.join(dir, 'arbor.mts');
  const main = path.resolve('server/cli/main.ts');
  fs.writeFileSync(
    runner,
    `import { runCli } from ${JSON.stringify(main)};\nprocess.exitCode = await runCli(process.argv.slice(2));\n`,
  );
  return runner;
}

export interface ArborProcess {
  child: ChildProcessWithoutNullStreams;
  output(): { stdout: string; stderr: string };
  /** Resolves with the first stdout text matching `pattern`; rejects if the process ends first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

export function spawnArbor(args: string[], env: Record<string, string> = {}): ArborProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', runnerFile(), ...args], {
    cwd: path.resolve('.'),
    env: { ...process.env, OPENAI_API_KEY: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of [...waiters]) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (!match) return;
          waiters.delete(check);
          resolve(match);
        };
        waiters.add(check);
        check();
        void exited.then((code) => {
          if (!waiters.has(check)) return;
          waiters.delete(check);
          reject(
            new Error(`arbor exited (${code}) before printing ${pattern}: ${stderr}${stdout}`),
          );
        });
      }),
  };
}

/** Runs `arbor ARGS` to its end; killed after `timeoutMs` (a server that should not have started). */
export async function runArbor(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const arbor = spawnArbor(args, env);
  const timer = setTimeout(() => arbor.child.kill('SIGKILL'), timeoutMs);
  const code = await arbor.exited;
  clearTimeout(timer);
  return { code, ...arbor.output() };
}
