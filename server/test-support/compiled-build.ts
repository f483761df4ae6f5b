import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/*
 * Server files as the built server runs them: compiled by tsc the way `npm run build` compiles
 * them and loaded by plain node (no tsx), so a worker entry is found as compiled JavaScript beside
 * the module that starts it. For the tests of workers (grep's, the compaction's).
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CompiledBuild {
  /** The folder the files were compiled into, mirroring the repository's layout. */
  readonly out: string;
  /** The compiled file of `file` (repository-relative, `.js`), as a JSON string for a script. */
  module(file: string): string;
  /** Runs `script` (an ES module) in a plain node process in `out`; its stdout and stderr. */
  run(script: string): { stdout: string; stderr: string };
  remove(): void;
}

/**
 * Compiles `entries` (repository-relative) and what they import with tsconfig.server.json's emit
 * settings into a new temporary folder named after `name`; tsc must say nothing.
 */
export function compileBuild(name: string, entries: string[]): CompiledBuild {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `arbor-${name}-dist-`));
  const tsc = spawnSync(
    process.execPath,
    [
      path.join(repo, 'node_modules/typescript/bin/tsc'),
      ...['--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2023'],
      ...['--strict', '--skipLibCheck', '--types', 'node', '--verbatimModuleSyntax'],
      ...['--rootDir', repo, '--outDir', out],
      ...entries.map((entry) => path.join(repo, entry)),
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  expect(tsc.stdout + tsc.stderr).toBe('');
  // The compiled modules resolve packages (zod) from the repository's node_modules.
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(out, 'node_modules'));
  fs.writeFileSync(path.join(out, 'package.json'), '{"type":"module"}');
  return {
    out,
    module: (file) => JSON.stringify(path.join(out, file)),
    run(script) {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: out,
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { stdout: child.stdout, stderr: child.stderr };
    },
    remove: () => fs.rmSync(out, { recursive: true, force: true }),
  };
}
