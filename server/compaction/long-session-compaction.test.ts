import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSessionEvent } from '../../shared/agent-events.js';
import { compactionWorkerStats } from './compaction-runner.js';
import { openCompactionHarness, type CompactionHarness } from '../test-support/agent-harness.js';
import { writeLongSessionFile } from './test-support/long-session.js';

/*
 * The attack of issue 11, item 7: compacting a very long session used to hold the server's one
 * event loop (24.6 s for 30,000 messages, all sessions frozen). Here a session of 30,000, then
 * 200,000 messages is compacted (by hand, then automatically before a prompt) in the same process
 * as a second session that keeps sending prompts to its model over HTTP; the second session must
 * get answers while the first one's compaction is being prepared, that preparation must run on a
 * worker thread, and the summary request must fit the model's window.
 */

// A small window keeps the demo model's reading of each summary request quick.
const WINDOW = 32_000;
let open: CompactionHarness[] = [];

afterEach(async () => {
  await Promise.all(open.map((harness) => harness.close()));
  open = [];
});

async function harness(opts: Parameters<typeof openCompactionHarness>[0]) {
  const opened = await openCompactionHarness(opts);
  open.push(opened);
  return opened;
}

interface Ping {
  /** The long session's compaction had started (compaction_start) when the answer came. */
  afterStart: boolean;
  /** Its summary request had not reached the model yet: the compaction was being prepared. */
  beforeRequest: boolean;
  /** A compaction job was running on a worker. */
  jobInFlight: boolean;
}

/** Prompts `other` over and over until `stop()` is called; records when each answer came. */
function keepPinging(other: CompactionHarness, long: CompactionHarness) {
  const pings: Ping[] = [];
  let stopped = false;
  const started = () => long.events.some((event) => event.type === 'compaction_start');
  const loop = (async () => {
    while (!stopped) {
      await other.session.prompt('ping');
      pings.push({
        afterStart: started(),
        beforeRequest: long.summaryPrompts.length === 0,
        jobInFlight: compactionWorkerStats().running > 0,
      });
    }
  })();
  return {
    pings,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

function compactionEnds(events: AgentSessionEvent[]) {
  return events.filter(
    (event): event is Extract<AgentSessionEvent, { type: 'compaction_end' }> =>
      event.type === 'compaction_end',
  );
}

describe('compacting a very long session', () => {
  it('fits a 30,000-message compaction while another session keeps answering', async () => {
    const long = await harness({
      serverWindow: WINDOW,
      sessionFile: (dir, cwd) => writeLongSessionFile(dir, cwd, 30_000),
    });
    const other = await harness({ serverWindow: WINDOW });
    await other.session.prompt('warm up');
    const jobsBefore = compactionWorkerStats().jobs;

    const pinging = keepPinging(other, long);
    const result = await long.session.compact();
    await pinging.stop();

    // Answers came while the compaction was being prepared, not only once it had been asked.
    const duringPreparation = pinging.pings.filter((p) => p.afterStart && p.beforeRequest);
    expect(duringPreparation.length).toBeGreaterThan(0);
    expect(pinging.pings.some((p) => p.jobInFlight)).toBe(true);
    // The preparation ran on a worker thread.
    expect(compactionWorkerStats().jobs).toBeGreaterThan(jobsBefore);
    expect(compactionWorkerStats().lastThreadId).not.toBe(threadId);

    // The request fitted the window: most of the history was left out, and the model said so.
    const summaryCall = long.calls.find((call) => call.kind === 'summary');
    expect(summaryCall?.stopReason).toBe('stop');
    expect(summaryCall!.promptTokens).toBeLessThanOrEqual(WINDOW);
    const omitted = /\[Earlier material omitted: (\d+) older messages/.exec(
      long.summaryPrompts[0] ?? '',
    );
    expect(Number(omitted?.[1])).toBeGreaterThan(20_000);
    expect(long.store.getBranch().at(-1)).toMatchObject({
      type: 'compaction',
      firstKeptEntryId: result.firstKeptEntryId,
    });
  }, 180_000);

  it('compacts a 200,000-message session before a prompt while another keeps answering', async () => {
    const long = await harness({
      serverWindow: WINDOW,
      sessionFile: (dir, cwd) => writeLongSessionFile(dir, cwd, 200_000, { textScale: 0.25 }),
      // Small enough a kept part that one round brings the context under the threshold.
      settings: { keepRecentTokens: 2000 },
    });
    const other = await harness({ serverWindow: WINDOW });
    await other.session.prompt('warm up');
    const jobsBefore = compactionWorkerStats().jobs;

    const pinging = keepPinging(other, long);
    await long.session.prompt('what next?');
    await pinging.stop();

    expect(pinging.pings.filter((p) => p.jobInFlight).length).toBeGreaterThan(0);
    expect(compactionWorkerStats().jobs).toBeGreaterThan(jobsBefore);
    expect(compactionWorkerStats().lastThreadId).not.toBe(threadId);

    // The automatic compaction succeeded and the prompt then went through within the window.
    const ends = compactionEnds(long.events);
    expect(ends.length).toBeGreaterThan(0);
    for (const end of ends) expect(end).toMatchObject({ reason: 'threshold', aborted: false });
    expect(ends.every((end) => end.result !== undefined)).toBe(true);
    // One round, one job: the threshold check's plan is the one the compaction used.
    expect(ends).toHaveLength(1);
    expect(compactionWorkerStats().jobs - jobsBefore).toBe(1);
    for (const call of long.calls) {
      expect(call.stopReason).not.toBe('error');
      expect(call.promptTokens).toBeLessThanOrEqual(WINDOW);
    }
    expect(long.calls.at(-1)?.kind).toBe('agent');
    expect(long.summaryPrompts[0]).toMatch(/\[Earlier material omitted: \d+ older messages/);
    // pi 1.6's checkpoint of the prompt recorded before the request, then the summary.
    expect(
      long.session
        .getContextMessages()
        .map((m) => m.role)
        .slice(0, 2),
    ).toEqual(['system', 'compactionSummary']);
  }, 300_000);
});
