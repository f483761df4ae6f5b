import { spawnSync } from 'node:child_process';
import path from 'node:path';

/*
 * Runs the real `arbor` command line from the sources (through tsx) in a process of its own, as an
 * operator would on a machine where a server is running: `runArborCli(['user', 'add', ...])`.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const SCRIPT =
  "const { runCli } = await import('./server/cli/main.ts'); " +
  'process.exitCode = await runCli(process.argv.slice(1));';

export function runArborCli(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', SCRIPT, ...args],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `arbor user add NAME --role ROLE --data DIR`; returns the token it printed. */
export function addUserWithCli(dataDir: string, name: string, role: string): string {
  const result = runArborCli(['user', 'add', name, '--role', role, '--data', dataDir]);
  const token = /^\s{2}(\S+)\s*$/m.exec(result.stdout)?.[1];
  if (result.status !== 0 || !token) {
    throw new Error(`arbor user add failed (${result.status}): ${result.stderr}${result.stdout}`);
  }
  return token;
}

/** `arbor user remove NAME --data DIR`. */
export function removeUserWithCli(dataDir: string, name: string): void {
  const result = runArborCli(['user', 'remove', name, '--data', dataDir]);
  if (result.status !== 0) throw new Error(`arbor user remove failed: ${result.stderr}`);
}
