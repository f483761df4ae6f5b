import { describe, expect, it } from 'vitest';
import { SessionStore } from '../store/session-store.js';
import { findLatestCutPoint } from './cut-point.js';
import { CompactionRefusedError, planCompaction } from './session-compaction.js';
import { capSummary, summaryOutputBudget } from './summarizer.js';
import { effectiveKeepRecent } from './threshold-policy.js';
import { TurnWriter } from './test-support/session-builder.js';

const settings = { enabled: true, reserveTokens: 1000, keepRecentTokens: 1000 };

function session(build: (writer: TurnWriter) => void): SessionStore {
  const store = SessionStore.inMemory('/tmp');
  build(new TurnWriter(store));
  return store;
}

describe('planning a compaction', () => {
  it('refuses manual compaction of a session with nothing older than the kept part', () => {
    const store = session((w) => w.turn('small', { resultChars: 50 }));
    expect(() => planCompaction(store.getBranch(), settings, 'manual')).toThrow(
      'Nothing to compact (session too small)',
    );
    expect(() => planCompaction(store.getBranch(), settings, 'manual')).toThrow(
      CompactionRefusedError,
    );
  });

  it('lets an automatic compaction keep less when the kept budget would keep everything', () => {
    const store = session((w) => {
      w.turn('one', { resultChars: 600 });
      w.turn('two', { resultChars: 600 });
    });
    const path = store.getBranch();
    const plan = planCompaction(path, { ...settings, keepRecentTokens: 5000 }, 'threshold');
    expect(plan.messagesToSummarize.length + plan.turnPrefixMessages.length).toBeGreaterThan(0);
  });

  it('lets a manual compaction of a short session keep the latest turn', () => {
    const store = session((w) => {
      w.turn('one');
      w.turn('two');
      w.turn('three');
    });
    const path = store.getBranch();
    const plan = planCompaction(path, settings, 'manual');
    const kept = store.getEntry(plan.firstKeptEntryId);
    expect(kept).toMatchObject({
      type: 'message',
      message: { role: 'user', content: [{ text: 'three' }] },
    });
    expect(plan.isSplitTurn).toBe(false);
    expect(plan.messagesToSummarize).toHaveLength(8);
  });

  it('cuts at the newest tool call, keeping its results, only as a last resort', () => {
    const store = session((w) => {
      w.turn('earlier', { tools: 0 });
      w.user('read everything');
    });
    const writer = new TurnWriter(store);
    // An assistant with two calls and two huge results after it: pi's cut keeps everything.
    writer.turn('batch', { tools: 2, resultChars: 8000, answer: '' });
    const path = store.getBranch().slice(0, -1); // before the final answer
    expect(() => planCompaction(path, { ...settings, keepRecentTokens: 64 }, 'threshold')).toThrow(
      CompactionRefusedError,
    );
    const latest = findLatestCutPoint(path, 0, path.length);
    const cutEntry = path[latest.firstKeptEntryIndex];
    expect(cutEntry?.type === 'message' && cutEntry.message.role).toBe('assistant');
    const plan = planCompaction(path, settings, 'overflow', { cutAtLatest: true });
    expect(plan.firstKeptEntryId).toBe(cutEntry?.id);
    // The turn's request is summarised as the split turn's prefix.
    expect(plan.isSplitTurn).toBe(true);
    expect(plan.turnPrefixMessages[0]).toMatchObject({
      role: 'user',
      content: [{ text: 'batch' }],
    });
  });
});

describe('summary budgets', () => {
  it('never lets a summary take more than an eighth of the window', () => {
    const model = { contextWindow: 4000, maxOutputTokens: 4096, reasoning: false };
    expect(summaryOutputBudget(model, 13107)).toBe(500);
    expect(summaryOutputBudget({ ...model, contextWindow: 200_000 }, 13107)).toBe(4096);
  });

  it('cuts a summary that ignored its budget', () => {
    expect(capSummary('short', 10)).toBe('short');
    const cut = capSummary('x'.repeat(100), 10);
    expect(cut).toBe(`${'x'.repeat(40)}\n\n[Summary cut to its 10-token budget.]`);
  });

  it('keeps room for overhead and summary on a small window, and pi’s budget on a large one', () => {
    const small = { contextWindow: 4000, maxOutputTokens: 4096 };
    expect(effectiveKeepRecent(settings, small, 1300)).toBe(600);
    const large = { contextWindow: 200_000, maxOutputTokens: 32_000 };
    expect(
      effectiveKeepRecent(
        { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
        large,
        5000,
      ),
    ).toBe(20000);
  });
});
