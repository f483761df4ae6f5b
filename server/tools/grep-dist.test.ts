import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileBuild, type CompiledBuild } from '../test-support/compiled-build.js';

/*
 * The grep worker as the built server runs it: the tool and its worker compiled by tsc the way
 * `npm run build` compiles them, loaded by plain node (no tsx), so the worker entry is found as
 * compiled JavaScript beside the tool.
 */

let build: CompiledBuild;

// The worker is an entry of its own: nothing imports it.
beforeAll(() => {
  build = compileBuild('grep', ['server/tools/grep-tool.ts', 'server/tools/grep-worker.ts']);
}, 120_000);

afterAll(() => build.remove());

/** Runs both searches in a plain node process over the compiled tool; returns what each gave. */
function runCompiled(workspace: string): { normal: string; pathological: string } {
  const script = `
    import { createGrepTool } from ${build.module('server/tools/grep-tool.js')};
    const tool = createGrepTool(${JSON.stringify(workspace)}, { timeBudgetMs: 1500 });
    const run = (args) => tool
      .execute(tool.parse(args), { signal: new AbortController().signal, onUpdate() {} })
      .then((r) => r.content[0].text, (e) => 'error: ' + e.message);
    const normal = await run({ pattern: 'needle' });
    const pathological = await run({ pattern: '(a+)+$', path: 'slow.txt' });
    process.stdout.write(JSON.stringify({ normal, pathological }));
  `;
  const child = build.run(script);
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
      expect(fs.existsSync(path.join(build.out, 'server/tools/grep-worker.js'))).toBe(true);
      expect(result.normal).toBe('found.txt:2: needle here');
      expect(result.pathological).toMatch(
        /^error: grep stopped: the pattern took longer than 1\.5 s/,
      );
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
