import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileBuild, type CompiledBuild } from '../test-support/compiled-build.js';

/*
 * The compaction worker as the built server runs it: the runner and its worker compiled by tsc
 * the way `npm run build` compiles them, loaded by plain node (no tsx), so the worker entry is
 * found as compiled JavaScript beside the runner (as grep's is, server/tools/grep-dist.test.ts).
 */

let build: CompiledBuild;

// The worker is an entry of its own: nothing imports it.
beforeAll(() => {
  build = compileBuild('compaction', [
    'server/compaction/session-compaction.ts',
    'server/compaction/compaction-worker.ts',
    'server/store/session-store.ts',
  ]);
}, 180_000);

afterAll(() => build.remove());

describe('compaction from the build', () => {
  it('prepares a compaction in the compiled worker', () => {
    const compiled = build.module;
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
    const child = build.run(script);
    expect(child.stderr).toBe('');
    expect(fs.existsSync(path.join(build.out, 'server/compaction/compaction-worker.js'))).toBe(
      true,
    );
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
