import { describe, expect, it } from 'vitest';
import type { CompactionReason } from '../../shared/agent-events.js';
import { SessionEntrySchema } from '../../shared/session-entries.js';
import { prng } from '../../shared/prng.js';
import { runCompactionJob, type CompactionJobParams } from './compaction-job.js';
import { compactionWorkerStats, prepareCompactionInWorker } from './compaction-runner.js';
import { newestFirst } from './session-path.js';
import { SummaryAbortedError } from './summary-model.js';
import { longSessionEntries } from './test-support/long-session.js';
import { randomPiSession } from '../test-support/random-pi-session.js';

/*
 * A compaction job on the worker gives exactly what the same job gives on this thread (the path
 * copied as JSON in pieces, newest first, and put back in order), on random trees written by pi's
 * SessionManager at many leaves; and an aborted job stops its worker.
 */

const reasons: CompactionReason[] = ['manual', 'threshold', 'overflow'];

describe('compaction jobs on a worker', () => {
  it('give what the job gives on this thread, on random sessions at many leaves', async () => {
    const rand = prng(3);
    let compared = 0;
    let prepared = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const { manager, ids } = randomPiSession(seed, 160);
      for (const leaf of ids.filter((_, i) => i % 16 === 0 || i === ids.length - 1)) {
        const path = (manager.getBranch(leaf) as unknown[]).map((entry) =>
          SessionEntrySchema.parse(entry),
        );
        const params: CompactionJobParams = {
          settings: {
            enabled: true,
            reserveTokens: 200 + Math.floor(rand() * 4000),
            keepRecentTokens: [50, 300, 2000, 20000][Math.floor(rand() * 4)]!,
          },
          reason: reasons[Math.floor(rand() * reasons.length)]!,
          cutAtLatest: rand() < 0.5,
          model: {
            contextWindow: [4000, 16000, 128000][Math.floor(rand() * 3)]!,
            maxOutputTokens: 2000,
            reasoning: rand() < 0.5,
          },
          ...(rand() < 0.3 ? { customInstructions: 'focus on the tests' } : {}),
        };
        const onWorker = await prepareCompactionInWorker(newestFirst(path), params);
        expect(onWorker).toEqual(runCompactionJob(path, params));
        compared++;
        if (onWorker.type === 'prepared') prepared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
    expect(prepared).toBeGreaterThan(10);
    expect(compared - prepared).toBeGreaterThan(5);
  }, 120_000);

  it('copies a path of many pieces in order', async () => {
    // About 14 MB of JSON: a hundred pieces and more.
    const path = longSessionEntries(20_000);
    const params: CompactionJobParams = {
      settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
      reason: 'manual',
      cutAtLatest: false,
      model: { contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: false },
    };
    expect(await prepareCompactionInWorker(newestFirst(path), params)).toEqual(
      runCompactionJob(path, params),
    );
  }, 120_000);

  it('stops the worker of an aborted job and says the compaction was cancelled', async () => {
    const path = longSessionEntries(20_000);
    const controller = new AbortController();
    const params: CompactionJobParams = {
      settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
      reason: 'manual',
      cutAtLatest: false,
      model: { contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: false },
    };
    const running = prepareCompactionInWorker(newestFirst(path), params, controller.signal);
    expect(compactionWorkerStats().running).toBe(1);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(SummaryAbortedError);
    expect(compactionWorkerStats().running).toBe(0);
    await expect(
      prepareCompactionInWorker(newestFirst(path), params, controller.signal),
    ).rejects.toBeInstanceOf(SummaryAbortedError);
  }, 120_000);

  it('fails clearly, and frees its worker, when the path cannot be read', async () => {
    const path = longSessionEntries(5_000);
    function* breaking() {
      yield* newestFirst(path.slice(2_000));
      throw new Error('The session file x.jsonl is closed; its bodies can no longer be read');
    }
    const params: CompactionJobParams = {
      settings: { enabled: true, reserveTokens: 16384, keepRecentTokens: 2000 },
      reason: 'manual',
      cutAtLatest: false,
      model: { contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: false },
    };
    await expect(prepareCompactionInWorker(breaking(), params)).rejects.toThrow(
      'The compaction could not be prepared: The session file x.jsonl is closed',
    );
    expect(compactionWorkerStats().running).toBe(0);
    expect(await prepareCompactionInWorker(newestFirst(path), params)).toEqual(
      runCompactionJob(path, params),
    );
  });
});
