import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSessionEvent } from '../../shared/agent-events.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { SessionStore } from '../store/session-store.js';
import {
  expectPiAgrees,
  openCompactionHarness,
  type CompactionHarness,
} from '../test-support/agent-harness.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';
import { TurnWriter } from './test-support/session-builder.js';
import { estimateTokens } from './token-estimates.js';

/** The model the answers written by hand name, as the turn writer's do. */
const ARBOR_DEMO = { provider: 'arbor', model: 'arbor-demo' };

/*
 * What compactions and branch summaries write, through a live AgentSession over a session file
 * seeded with realistic turns, and the demo model over HTTP through the real openai client.
 */

let h: CompactionHarness | undefined;
let writer: TurnWriter;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A harness whose session file first gets the turns `seed` writes. */
async function open(
  opts: Omit<Parameters<typeof openCompactionHarness>[0], 'seed' | 'serverWindow'> & {
    serverWindow?: number;
  },
  seed: (writer: TurnWriter, store: SessionStore) => void,
): Promise<CompactionHarness> {
  h = await openCompactionHarness({
    serverWindow: 128_000,
    ...opts,
    seed: (store) => {
      writer = new TurnWriter(store);
      seed(writer, store);
    },
  });
  return h;
}

function compactionEvents(harness: CompactionHarness) {
  return harness.events.filter(
    (e): e is Extract<AgentSessionEvent, { type: 'compaction_start' | 'compaction_end' }> =>
      e.type === 'compaction_start' || e.type === 'compaction_end',
  );
}

function summaryCalls(harness: CompactionHarness) {
  return harness.calls.filter((c) => c.kind === 'summary');
}

function branchSummaryOf(harness: CompactionHarness): SessionEntry & { type: 'branch_summary' } {
  const found = harness.store
    .getBranch()
    .findLast((e): e is SessionEntry & { type: 'branch_summary' } => e.type === 'branch_summary');
  if (!found) throw new Error('no branch summary on the path');
  return found;
}

describe('manual compaction', () => {
  it('appends one compaction with the checkpoint sections, file lists and verbatim request', async () => {
    const harness = await open({ settings: { keepRecentTokens: 400 } }, (w) => {
      for (let i = 0; i < 6; i++)
        w.turn(`task${i} please fix it\nsecond line of request ${i}`, { tools: 2 });
    });
    const { store, session } = harness;
    const before = store.getTree().length;

    const result = await session.compact('focus on the tests');

    expect(store.getTree().length).toBe(before + 1);
    const entry = store.getEntry(store.getLeafId()!);
    expect(entry?.type).toBe('compaction');
    if (entry?.type !== 'compaction') return;
    expect(entry.summary).toBe(result.summary);
    for (const section of [
      '## Goal',
      '## Constraints & Preferences',
      '## Progress',
      '## Key Decisions',
      '## Next Steps',
      '## Critical Context',
      '## User Requests (verbatim)',
    ])
      expect(entry.summary).toContain(section);
    expect(entry.summary).toMatch(/<read-files>\nsrc\/task0-0\.ts/);
    expect(entry.summary).toMatch(/<modified-files>\nsrc\/task0-1\.ts/);
    expect(entry.details).toEqual(result.details);
    // The kept part starts at a message, never at a tool result.
    const kept = store.getEntry(entry.firstKeptEntryId!);
    expect(kept?.type === 'message' && kept.message.role !== 'toolResult').toBe(true);
    // The latest summarised request is in the summary in full (the demo keeps only first lines).
    const branch = store.getBranch();
    const summarised = branch
      .slice(
        0,
        branch.findIndex((e) => e.id === entry.firstKeptEntryId),
      )
      .filter((e) => e.type === 'message' && e.message.role === 'user');
    const last = summarised[summarised.length - 1];
    expect(last?.type === 'message' && last.message.role === 'user').toBe(true);
    if (last?.type === 'message' && last.message.role === 'user') {
      const text = (last.message.content as { text: string }[])[0]!.text;
      expect(entry.summary).toContain(text.split('\n')[1]);
    }
    expect(harness.summaryPrompts[0]).toContain('Additional focus: focus on the tests');
    const events = compactionEvents(harness);
    expect(events.map((e) => e.type)).toEqual(['compaction_start', 'compaction_end']);
    expect(events[1]).toMatchObject({ reason: 'manual', aborted: false, willRetry: false, result });
    expect(session.getContextMessages()[0]?.role).toBe('compactionSummary');
    expect(result.tokensBefore).toBeGreaterThan(0);
    await expectPiAgrees(harness);
  });

  it('refuses with "Already compacted" and "Nothing to compact", appending nothing', async () => {
    const harness = await open({ settings: { keepRecentTokens: 400 } }, (w) => w.turn('tiny'));
    const { store, session } = harness;
    await expect(session.compact()).rejects.toThrow('Nothing to compact (session too small)');
    for (let i = 0; i < 5; i++) writer.turn(`more${i}`, { resultChars: 800 });
    await session.compact();
    const count = store.getTree().length;
    await expect(session.compact()).rejects.toThrow('Already compacted');
    expect(store.getTree().length).toBe(count);
    const ends = compactionEvents(harness).filter((e) => e.type === 'compaction_end');
    expect(ends.map((e) => e.type === 'compaction_end' && e.errorMessage)).toEqual([
      'Compaction failed: Nothing to compact (session too small)',
      undefined,
      'Compaction failed: Already compacted',
    ]);
  });

  it('builds on the previous summary, starting at its first kept entry, with cumulative files', async () => {
    const harness = await open({ settings: { keepRecentTokens: 400 } }, (w) => {
      for (let i = 0; i < 5; i++) w.turn(`alpha${i} job`, { tools: 2 });
    });
    const { store, session } = harness;
    const first = await session.compact();
    const firstKept = store.getEntry(first.firstKeptEntryId);
    for (let i = 0; i < 5; i++) writer.turn(`beta${i} job`, { tools: 2 });
    const asked = harness.summaryPrompts.length;
    const second = await session.compact();

    const prompt = harness.summaryPrompts[asked]!;
    expect(prompt).toContain('<previous-summary>');
    expect(prompt).toContain(first.summary.split('\n')[0]!);
    expect(prompt).toContain('Update that summary');
    // The span starts at the previous compaction's first kept entry.
    expect(firstKept?.type).toBe('message');
    if (firstKept?.type === 'message' && firstKept.message.role === 'user') {
      expect(prompt).toContain(
        `[User]: ${(firstKept.message.content as { text: string }[])[0]!.text}`,
      );
    }
    expect(prompt).not.toContain('[User]: alpha0 job');
    const details = second.details as { readFiles: string[]; modifiedFiles: string[] };
    expect(details.readFiles).toContain('src/alpha0-0.ts');
    expect(details.modifiedFiles).toContain('src/alpha0-1.ts');
    expect(details.readFiles).toContain('src/beta0-0.ts');
    await expectPiAgrees(harness);
  });

  it('splits a turn larger than the kept budget and keeps its request verbatim', async () => {
    const request = 'refactor the parser\nand keep every test green\n(third line)';
    const harness = await open({ settings: { keepRecentTokens: 600 } }, (w) => {
      w.turn('warmup task', { tools: 1 });
      w.turn(request, { tools: 12, resultChars: 600 });
    });

    const result = await harness.session.compact();

    expect(summaryCalls(harness).length).toBe(2);
    expect(result.summary).toContain('**Turn Context (split turn):**');
    const [, prefix] = result.summary.split('**Turn Context (split turn):**');
    expect(prefix).toContain('> refactor the parser\n> and keep every test green\n> (third line)');
    expect(harness.summaryPrompts.some((p) => p.includes('## Original Request'))).toBe(true);
    const kept = harness.store.getEntry(result.firstKeptEntryId);
    expect(kept?.type === 'message' && kept.message.role).toBe('assistant');
    await expectPiAgrees(harness);
  });

  it('fits a summary request that is too long for the model by pruning and shedding', async () => {
    const harness = await open(
      { serverWindow: 3000, settings: { keepRecentTokens: 300, reserveTokens: 600 } },
      (w) => {
        for (let i = 0; i < 60; i++) w.turn(`item${i} step`, { tools: 2, resultChars: 1500 });
      },
    );

    await harness.session.compact();

    const prompt = harness.summaryPrompts[0]!;
    expect(prompt).toMatch(/\[Earlier material omitted: \d+ older messages?/);
    expect(prompt).toContain('[User]: item0 step');
    const calls = summaryCalls(harness);
    expect(calls.length).toBe(harness.summaryPrompts.length);
    for (const call of calls) {
      expect(call.stopReason).not.toBe('error');
      expect(call.promptTokens).toBeLessThanOrEqual(3000);
    }
    await expectPiAgrees(harness);
  });

  it('leaves the file untouched and says why when the model cannot be reached', async () => {
    const harness = await open({ settings: { keepRecentTokens: 400 } }, (w) => {
      for (let i = 0; i < 5; i++) w.turn(`job${i}`, { resultChars: 800 });
    });
    await harness.demo.close();
    const bytes = fs.readFileSync(harness.store.file!);

    await expect(harness.session.compact()).rejects.toThrow(/Summarization failed/);

    expect(fs.readFileSync(harness.store.file!)).toEqual(bytes);
    const end = compactionEvents(harness).find((e) => e.type === 'compaction_end');
    expect(end).toMatchObject({
      aborted: false,
      errorMessage: expect.stringMatching(/^Compaction failed: Summarization failed/),
    });
    expect(harness.session.getState().isCompacting).toBe(false);
  });

  it('can be aborted, leaving the session exactly as it was', async () => {
    const harness = await open({ chunkDelayMs: 20, settings: { keepRecentTokens: 400 } }, (w) => {
      for (let i = 0; i < 5; i++) w.turn(`job${i}`, { resultChars: 800 });
    });
    const { store, session } = harness;
    const bytes = fs.readFileSync(store.file!);
    const leaf = store.getLeafId();

    const running = session.compact();
    await new Promise<void>((resolve) => {
      const check = () => (session.getState().isCompacting ? resolve() : setTimeout(check, 5));
      check();
    });
    await session.abort();

    await expect(running).rejects.toThrow(/cancelled/i);
    expect(fs.readFileSync(store.file!)).toEqual(bytes);
    expect(store.getLeafId()).toBe(leaf);
    expect(compactionEvents(harness).at(-1)).toEqual({
      type: 'compaction_end',
      reason: 'manual',
      aborted: true,
      willRetry: false,
    });
  });
});

describe('branch summaries', () => {
  it('summarises the branch left behind at the new parent, with the preamble, files and label', async () => {
    let forkPoint = '';
    let target = '';
    const harness = await open({}, (w, store) => {
      w.turn('shared start');
      forkPoint = store.getLeafId()!;
      target = w.user('a second prompt to edit');
      store.appendMessage(assistantMessage('answered', { contextTokens: 100, ...ARBOR_DEMO }));
      w.turn('explore option A\nwith details', { tools: 2 });
    });
    const { store, session } = harness;

    const left = store.getLeafId();
    const result = await session.navigateTree(target, { summarize: true, label: 'option A' });

    expect(result.editorText).toBe('a second prompt to edit');
    const summaryEntry = branchSummaryOf(harness);
    // The label entry comes after the summary and so is the leaf (as in pi).
    expect(store.getEntry(store.getLeafId()!)).toMatchObject({
      type: 'label',
      parentId: summaryEntry.id,
    });
    // The target is a user message: the leaf goes to its parent, which the summary hangs from.
    expect(summaryEntry.parentId).toBe(forkPoint);
    // pi 1.6: the leaf that was left.
    expect(summaryEntry.fromId).toBe(left);
    expect(
      summaryEntry.summary.startsWith(
        'The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n',
      ),
    ).toBe(true);
    expect(summaryEntry.summary).toContain('> explore option A\n> with details');
    expect(summaryEntry.details).toEqual({
      readFiles: ['src/explore-0.ts'],
      modifiedFiles: ['src/explore-1.ts'],
    });
    expect(store.getLabel(summaryEntry.id)).toBe('option A');
    expect(harness.summaryPrompts[0]).toContain(
      'Write a structured summary of this conversation branch',
    );
    expect(harness.summaryPrompts[0]).not.toContain('[Tool result]');
    await expectPiAgrees(harness);
  });

  it('appends custom instructions, or lets them replace the default prompt', async () => {
    let root = '';
    let leafA = '';
    const harness = await open({}, (w, store) => {
      root = w.user('first request');
      w.turn('branch work', { tools: 1 });
      leafA = store.getLeafId()!;
    });
    const { store, session } = harness;

    await session.navigateTree(root, { summarize: true, customInstructions: 'mention the files' });
    expect(harness.summaryPrompts[0]).toContain('Additional focus: mention the files');
    // A root user message: the leaf goes before the first entry; fromId is the leaf left.
    const summary = store.getEntry(store.getLeafId()!);
    expect(summary?.type === 'branch_summary' && summary.fromId).toBe(leafA);
    expect(summary?.parentId).toBeNull();

    await session.navigateTree(leafA, {
      summarize: true,
      customInstructions: '## Only This\nSay one thing.',
      replaceInstructions: true,
    });
    const prompt = harness.summaryPrompts[1]!;
    expect(prompt.endsWith('</conversation>\n\n## Only This\nSay one thing.')).toBe(true);
    await expectPiAgrees(harness);
  });

  it('moves without a summary when none is asked for, labelling the picked entry', async () => {
    let assistantId = '';
    const harness = await open({}, (w) => {
      w.turn('one');
      assistantId = w.ids[w.ids.length - 1]!;
      w.turn('two');
    });
    const { store, session } = harness;
    const result = await session.navigateTree(assistantId, { label: 'checkpoint' });
    expect(result).toEqual({ cancelled: false });
    expect(harness.summaryPrompts.length).toBe(0);
    expect(store.getLabel(assistantId)).toBe('checkpoint');
    expect(store.buildSessionContext().messages.at(-1)?.role).toBe('assistant');
  });
});

describe('automatic compaction', () => {
  it('compacts before a model call once the context crosses the threshold', async () => {
    const window = 4000;
    const harness = await open(
      { serverWindow: window, settings: { reserveTokens: 1000, keepRecentTokens: 800 } },
      (w) => {
        for (let i = 0; i < 8; i++) w.turn(`step${i} go`, { resultChars: 2000 });
      },
    );
    const { session } = harness;

    await session.prompt('next prompt');

    const events = compactionEvents(harness);
    expect(events[0]).toEqual({ type: 'compaction_start', reason: 'threshold' });
    expect(events[1]).toMatchObject({
      type: 'compaction_end',
      reason: 'threshold',
      aborted: false,
      willRetry: false,
    });
    const context = session.getContextMessages();
    // pi 1.6's checkpoint (the prompt recorded before the request), then the summary.
    expect(context[0]?.role).toBe('system');
    expect(context[1]?.role).toBe('compactionSummary');
    expect(context.at(-2)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'next prompt' }],
    });
    // Right after, the stale usage of kept messages does not trigger another compaction.
    expect(events.filter((e) => e.type === 'compaction_start')).toHaveLength(1);
    const agentCalls = harness.calls.filter((c) => c.kind === 'agent');
    expect(agentCalls).toHaveLength(1);
    expect(agentCalls[0]!.promptTokens).toBeLessThanOrEqual(window);
    expect(agentCalls[0]!.stopReason).not.toBe('error');
  });

  it('stops a turn whose compaction freed no room', async () => {
    const window = 4000;
    const huge = `please read this: ${'y'.repeat(14_000)}`;
    const harness = await open(
      { serverWindow: window, settings: { reserveTokens: 1000, keepRecentTokens: 1000 } },
      (_w, store) => {
        // A tiny old exchange: a summary of it is larger than what it replaces.
        store.appendMessage(userMessage('hi'));
        store.appendMessage(assistantMessage('ok', { contextTokens: 10, ...ARBOR_DEMO }));
      },
    );
    const { store, session } = harness;
    expect(estimateTokens(userMessage(huge))).toBeGreaterThan(window - 1000);

    await session.prompt(huge);

    const branch = store.getBranch();
    expect(branch.filter((e) => e.type === 'compaction')).toHaveLength(1);
    const last = branch.at(-1);
    expect(last?.type === 'message' && last.message.role === 'assistant').toBe(true);
    if (last?.type === 'message' && last.message.role === 'assistant') {
      expect(last.message.stopReason).toBe('error');
      expect(last.message.errorMessage).toMatch(/^Compaction freed no room/);
    }
    expect(harness.calls.filter((c) => c.kind === 'agent')).toEqual([]);
  });
});
