import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The compaction worker as the built server runs it: the runner and its worker compiled by tsc
 * the way `npm run build` compiles them, loaded by plain node (no tsx), so the worker entry is
 * found as compiled JavaScript beside the runner (as grep's is, server/tools/grep-dist.test.ts).
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let out: string;

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-compaction-dist-'));
  const tsc = spawnSync(
    process.execPath,
    [
      path.join(repo, 'node_modules/typescript/bin/tsc'),
      // tsconfig.server.json's emit settings, for the compaction's files only (the worker is an
      // entry of its own: nothing imports it).
      ...['--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2023'],
      ...['--strict', '--skipLibCheck', '--types', 'node', '--verbatimModuleSyntax'],
      ...['--rootDir', repo, '--outDir', out],
      path.join(repo, 'server/compaction/session-compaction.ts'),
      path.join(repo, 'server/compaction/compaction-worker.ts'),
      path.join(repo, 'server/store/session-store.ts'),
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  expect(tsc.stdout + tsc.stderr).toBe('');
  // The compiled modules resolve packages (zod) from the repository's node_modules.
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(out, 'node_modules'));
  fs.writeFileSync(path.join(out, 'package.json'), '{"type":"module"}');
}, 180_000);

afterAll(() => {
  fs.rmSync(out, { recursive: true, force: true });
});

describe('compaction from the build', () => {
  it('prepares a compaction in the compiled worker', () => {
    const compiled = (file: string) => JSON.stringify(path.join(out, file));
    const script = `
      import { threadId } from 'node:worker_threads';
      import { SessionStore } from ${compiled('server/store/session-store.js')};
      import { prepareSessionCompaction } from ${compiled('server/compaction/session-compaction.js')};
      import { compactionWorkerStats } from ${compiled('server/compaction/compaction-runner.js')};
      import { planCompaction } from ${compiled('server/compaction/plan-compaction.js')};
      const store = SessionStore.inMemory('/tmp');
      for (let i = 0; i < 200; i++) {
        store.appendMessage({ role: 'user', content: 'request ' + i + ' ' + 'x'.repeat(400), timestamp: i });
        store.appendMessage({
          role: 'assistant', content: [{ type: 'text', text: 'answer ' + i }], api: 'openai-completions',
          provider: 'demo', model: 'demo', stopReason: 'stop', timestamp: i,
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        });
      }
      const settings = { enabled: true, reserveTokens: 1000, keepRecentTokens: 500 };
      const prepared = await prepareSessionCompaction({
        store,
        model: { contextWindow: 8000, maxOutputTokens: 1000, reasoning: false },
        settings,
        reason: 'manual',
      });
      const here = planCompaction(store.getBranch(), settings, 'manual');
      const stats = compactionWorkerStats();
      process.stdout.write(JSON.stringify({
        omitted: /Earlier material omitted: (\\d+)/.exec(prepared.requests.history.promptText)?.[1],
        firstKept: prepared.firstKeptEntryId === here.firstKeptEntryId,
        jobs: stats.jobs,
        onWorker: stats.lastThreadId !== threadId,
      }));
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: out,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(fs.existsSync(path.join(out, 'server/compaction/compaction-worker.js'))).toBe(true);
    const result = JSON.parse(child.stdout) as Record<string, unknown>;
    expect(result).toEqual({
      omitted: expect.any(String),
      firstKept: true,
      jobs: 1,
      onWorker: true,
    });
    expect(Number(result.omitted)).toBeGreaterThan(100);
  });
});
