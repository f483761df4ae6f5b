import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The grep worker as the built server runs it: the tool and its worker compiled by tsc the way
 * `npm run build` compiles them, loaded by plain node (no tsx), so the worker entry is found as
 * compiled JavaScript beside the tool.
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let out: string;

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-grep-dist-'));
  const tsc = spawnSync(
    process.execPath,
    [
      path.join(repo, 'node_modules/typescript/bin/tsc'),
      // tsconfig.server.json's emit settings, for the tool's files only (the worker is an entry
      // of its own: nothing imports it).
      ...['--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2023'],
      ...['--strict', '--skipLibCheck', '--types', 'node', '--verbatimModuleSyntax'],
      ...['--rootDir', repo, '--outDir', out],
      path.join(repo, 'server/tools/grep-tool.ts'),
      path.join(repo, 'server/tools/grep-worker.ts'),
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  expect(tsc.stdout + tsc.stderr).toBe('');
  // The compiled modules resolve packages (zod) from the repository's node_modules.
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(out, 'node_modules'));
  fs.writeFileSync(path.join(out, 'package.json'), '{"type":"module"}');
}, 120_000);

afterAll(() => {
  fs.rmSync(out, { recursive: true, force: true });
});

/** Runs both searches in a plain node process over the compiled tool; returns what each gave. */
function runCompiled(workspace: string): { normal: string; pathological: string } {
  const script = `
    import { createGrepTool } from ${JSON.stringify(path.join(out, 'server/tools/grep-tool.js'))};
    const tool = createGrepTool(${JSON.stringify(workspace)}, { timeBudgetMs: 1500 });
    const run = (args) => tool
      .execute(tool.parse(args), { signal: new AbortController().signal, onUpdate() {} })
      .then((r) => r.content[0].text, (e) => 'error: ' + e.message);
    const normal = await run({ pattern: 'needle' });
    const pathological = await run({ pattern: '(a+)+$', path: 'slow.txt' });
    process.stdout.write(JSON.stringify({ normal, pathological }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: out,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as { normal: string; pathological: string };
}

describe('grep from the build', () => {
  it('searches in the compiled worker and stops a pathological pattern', () => {
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-grep-ws-')));
    try {
      fs.writeFileSync(path.join(workspace, 'found.txt'), 'hay\nneedle here\n');
      fs.writeFileSync(path.join(workspace, 'slow.txt'), `${'a'.repeat(48)}b\n`);
      const result = runCompiled(workspace);
      expect(fs.existsSync(path.join(out, 'server/tools/grep-worker.js'))).toBe(true);
      expect(result.normal).toBe('found.txt:2: needle here');
      expect(result.pathological).toMatch(
        /^error: grep stopped: the pattern took longer than 1\.5 s/,
      );
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
