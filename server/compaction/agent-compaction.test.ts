import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSessionEvent } from '../../shared/agent-events.js';
import { contentText } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { prng } from '../../shared/prng.js';
import {
  expectPiAgrees,
  openCompactionHarness,
  type CompactionHarness,
} from '../test-support/agent-harness.js';

/*
 * Compaction inside a live AgentSession: real session files, the demo model over HTTP through the
 * real openai client, small context windows.
 */

let h: CompactionHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

function compactionEvents(events: AgentSessionEvent[]) {
  return events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end');
}

function pathEntries(harness: CompactionHarness): SessionEntry[] {
  return harness.store.getBranch();
}

function toolLoopTrace(events: AgentSessionEvent[]): string[] {
  return events
    .filter((e) => ['compaction_start', 'tool_execution_end', 'message_start'].includes(e.type))
    .map((e) => (e.type === 'message_start' ? `message_start:${e.message.role}` : e.type));
}

function userTexts(harness: CompactionHarness): string[] {
  return harness.session
    .getContextMessages()
    .flatMap((m) => (m.role === 'user' ? [contentText(m.content)] : []));
}

describe('compaction in a live session', () => {
  it('compacts on request, with focus, and the context starts with the summary', async () => {
    h = await openCompactionHarness({ serverWindow: 128_000, settings: { keepRecentTokens: 300 } });
    fs.writeFileSync(path.join(h.workspace, 'a.txt'), 'alpha\n'.repeat(100));
    for (let i = 0; i < 6; i++) {
      await h.session.prompt(`task ${i}: look at a.txt\n/tool read {"path":"a.txt"}`);
    }
    const result = await h.session.compact('keep the file names');

    expect(compactionEvents(h.events).map((e) => e.type)).toEqual([
      'compaction_start',
      'compaction_end',
    ]);
    expect(compactionEvents(h.events)[1]).toMatchObject({ reason: 'manual', result });
    // pi 1.6's checkpoint, then the summary.
    expect(h.session.getContextMessages()[0]?.role).toBe('system');
    expect(h.session.getContextMessages()[1]?.role).toBe('compactionSummary');
    expect(result.summary).toContain('<read-files>\na.txt\n</read-files>');
    expect(h.calls.filter((c) => c.kind === 'summary').length).toBeGreaterThanOrEqual(1);
    await expect(h.session.compact()).rejects.toThrow('Already compacted');
    await h.session.prompt('after the compaction');
    expect(userTexts(h).at(-1)).toBe('after the compaction');
    await expectPiAgrees(h);
  });

  it('compacts a short session on request with default settings, keeping the last exchange', async () => {
    h = await openCompactionHarness({ serverWindow: 128_000 });
    await h.session.prompt('plan the garden');
    await h.session.prompt('add tomatoes');
    await h.session.prompt('and basil');
    const result = await h.session.compact();
    expect(result.summary).toContain('## Goal');
    expect(h.session.getContextMessages().map((m) => m.role)).toEqual([
      'system',
      'compactionSummary',
      'user',
      'assistant',
    ]);
    expect(userTexts(h)).toEqual(['and basil']);
    await expectPiAgrees(h);
  });

  it('stops a running turn before compacting on request', async () => {
    h = await openCompactionHarness({ serverWindow: 128_000, settings: { keepRecentTokens: 50 } });
    for (let i = 0; i < 3; i++) await h.session.prompt(`warm-up ${i} ${'w'.repeat(300)}`);
    const harness = h;
    const running = h.session.prompt(`/slow 40\na slow answer ${'z'.repeat(400)}`);
    await new Promise<void>((resolve) => {
      const check = () =>
        harness.events.some(
          (e) =>
            e.type === 'message_start' &&
            e.message.role === 'assistant' &&
            harness.session.getState().isStreaming,
        )
          ? resolve()
          : setTimeout(check, 5);
      check();
    });
    const result = await h.session.compact();
    await running;

    const abortedEnd = h.events.findIndex(
      (e) =>
        e.type === 'message_end' &&
        e.message.role === 'assistant' &&
        e.message.stopReason === 'aborted',
    );
    expect(abortedEnd).toBeGreaterThan(-1);
    expect(abortedEnd).toBeLessThan(h.events.findIndex((e) => e.type === 'compaction_start'));
    const aborted = pathEntries(h).filter(
      (e) =>
        e.type === 'message' &&
        e.message.role === 'assistant' &&
        e.message.stopReason === 'aborted',
    );
    expect(aborted).toHaveLength(1);
    expect(h.store.getEntry(h.store.getLeafId()!)).toMatchObject({
      type: 'compaction',
      summary: result.summary,
    });
    await expectPiAgrees(h);
  });

  it('compacts between tool calls when a tool loop crosses the threshold', async () => {
    h = await openCompactionHarness({ serverWindow: 4000 });
    fs.writeFileSync(path.join(h.workspace, 'mid.txt'), 'm'.repeat(800));
    await h.session.prompt(`first question\n${'about the project '.repeat(150)}`);
    await h.session.prompt(`second question\n${'and its tests '.repeat(190)}`);
    await h.session.prompt(
      'read it twice\n/tool read {"path":"mid.txt"}\n/tool read {"path":"mid.txt"}',
    );

    const trace = toolLoopTrace(h.events);
    const compactAt = trace.indexOf('compaction_start');
    expect(compactAt).toBeGreaterThan(trace.lastIndexOf('tool_execution_end'));
    expect(trace.slice(compactAt)).toContain('message_start:assistant');
    expect(compactionEvents(h.events)[0]).toEqual({
      type: 'compaction_start',
      reason: 'threshold',
    });
    for (const call of h.calls) expect(call.promptTokens).toBeLessThanOrEqual(4000);
    expect(h.calls.every((c) => c.stopReason !== 'error')).toBe(true);
    const last = h.session.getContextMessages().at(-1);
    expect(last?.role === 'assistant' && contentText(last.content)).toMatch(/^Tool results:/);
    await expectPiAgrees(h);
  });

  it('cuts a turn at its tool call when the results alone exceed the kept budget', async () => {
    h = await openCompactionHarness({ serverWindow: 4000 });
    fs.writeFileSync(path.join(h.workspace, 'big.txt'), 'b'.repeat(2400));
    await h.session.prompt(`first question\n${'about the project '.repeat(150)}`);
    await h.session.prompt(`second question\n${'and its tests '.repeat(190)}`);
    const request =
      'read it three times\n/tool read {"path":"big.txt"}\n/tool read {"path":"big.txt"}\n/tool read {"path":"big.txt"}';
    await h.session.prompt(request);

    const compaction = pathEntries(h).find((e) => e.type === 'compaction');
    expect(compaction?.type).toBe('compaction');
    if (compaction?.type !== 'compaction') return;
    expect(compaction.summary).toContain('**Turn Context (split turn):**');
    expect(compaction.summary).toContain('> read it three times\n> /tool read');
    const kept = h.store.getEntry(compaction.firstKeptEntryId!);
    expect(kept?.type === 'message' && kept.message.role).toBe('assistant');
    for (const call of h.calls) expect(call.promptTokens).toBeLessThanOrEqual(4000);
    expect(h.calls.every((c) => c.stopReason !== 'error')).toBe(true);
    await expectPiAgrees(h);
  });

  it('recovers from a provider overflow by compacting and retrying once', async () => {
    // Arbor believes the window is large; the provider enforces 6,000 tokens.
    h = await openCompactionHarness({
      serverWindow: 6000,
      catalogWindow: 100_000,
      settings: { keepRecentTokens: 500, reserveTokens: 2000 },
    });
    for (let i = 0; i < 8; i++) await h.session.prompt(`history ${i}:\n${'words '.repeat(130)}`);
    const big = `the big one\n${'data '.repeat(2600)}`;
    await h.session.prompt(big);

    const compactions = compactionEvents(h.events);
    expect(compactions.map((e) => e.type)).toEqual(['compaction_start', 'compaction_end']);
    expect(compactions[0]).toEqual({ type: 'compaction_start', reason: 'overflow' });
    expect(compactions[1]).toMatchObject({ reason: 'overflow', willRetry: true, aborted: false });
    const errors = h.calls.filter((c) => c.stopReason === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.errorMessage).toMatch(/maximum context length is 6000 tokens/);
    const last = h.session.getContextMessages().at(-1);
    expect(last?.role === 'assistant' && contentText(last.content)).toBe('You said: "the big one"');
    // The failed answer stays in the file; the context no longer carries it.
    expect(
      pathEntries(h).some(
        (e) =>
          e.type === 'message' &&
          e.message.role === 'assistant' &&
          e.message.stopReason === 'error',
      ),
    ).toBe(true);
    expect(userTexts(h).at(-1)).toBe(big);
    await expectPiAgrees(h);
  });

  it('stops with a clear error when the retry overflows again, without looping', async () => {
    h = await openCompactionHarness({
      serverWindow: 6000,
      catalogWindow: 100_000,
      settings: { keepRecentTokens: 500, reserveTokens: 2000 },
    });
    for (let i = 0; i < 4; i++) await h.session.prompt(`history ${i}:\n${'words '.repeat(130)}`);
    await h.session.prompt(`far too big\n${'data '.repeat(6000)}`);

    const compactions = compactionEvents(h.events);
    expect(compactions.filter((e) => e.type === 'compaction_start')).toHaveLength(1);
    expect(compactions.at(-1)).toMatchObject({
      type: 'compaction_end',
      reason: 'overflow',
      willRetry: false,
      errorMessage: expect.stringContaining('Context overflow recovery failed'),
    });
    expect(h.calls.filter((c) => c.stopReason === 'error')).toHaveLength(2);
    expect(h.session.getState().isStreaming).toBe(false);
  });

  it('aborting a compaction leaves the session file exactly as it was', async () => {
    h = await openCompactionHarness({
      serverWindow: 128_000,
      chunkDelayMs: 15,
      settings: { keepRecentTokens: 100 },
    });
    for (let i = 0; i < 4; i++) await h.session.prompt(`step ${i} ${'x'.repeat(400)}`);
    const bytes = fs.readFileSync(h.store.file!);
    const before = h.session.getContextMessages();

    const running = h.session.compact();
    const harness = h;
    await new Promise<void>((resolve) => {
      const check = () =>
        harness.session.getState().isCompacting ? resolve() : setTimeout(check, 5);
      check();
    });
    await h.session.abort();

    await expect(running).rejects.toThrow(/cancel|abort/i);
    expect(fs.readFileSync(h.store.file!)).toEqual(bytes);
    expect(h.session.getContextMessages()).toEqual(before);
    expect(compactionEvents(h.events).at(-1)).toMatchObject({
      type: 'compaction_end',
      aborted: true,
    });
    expect(h.session.getState().isCompacting).toBe(false);
  });

  it('refuses to move the leaf while a compaction runs, and says so', async () => {
    h = await openCompactionHarness({
      serverWindow: 128_000,
      chunkDelayMs: 15,
      settings: { keepRecentTokens: 100 },
    });
    for (let i = 0; i < 4; i++) await h.session.prompt(`step ${i} ${'x'.repeat(400)}`);
    const first = pathEntries(h).find((e) => e.type === 'message')!;
    const running = h.session.compact();
    const harness = h;
    await new Promise<void>((resolve) => {
      const check = () =>
        harness.session.getState().isCompacting ? resolve() : setTimeout(check, 5);
      check();
    });
    await expect(h.session.navigateTree(first.id)).rejects.toMatchObject({ code: 'session_busy' });
    await expect(h.session.navigateTree(first.id)).rejects.toThrow(/compaction/i);
    await running;
    expect(h.store.getEntry(h.store.getLeafId()!)?.type).toBe('compaction');
  });

  it('summarises the branch left behind when the leaf moves, with a label', async () => {
    h = await openCompactionHarness({ serverWindow: 4000 });
    await h.session.prompt('shared beginning');
    await h.session.prompt('try approach A\nin detail');
    const prompts = pathEntries(h).filter((e) => e.type === 'message' && e.message.role === 'user');
    const approachA = prompts[1]!;
    const left = h.store.getLeafId();

    const result = await h.session.navigateTree(approachA.id, {
      summarize: true,
      customInstructions: 'note what failed',
      label: 'approach A',
    });

    expect(result).toMatchObject({ cancelled: false, editorText: 'try approach A\nin detail' });
    const summary = pathEntries(h).find((e) => e.type === 'branch_summary');
    expect(summary?.type).toBe('branch_summary');
    if (summary?.type !== 'branch_summary') return;
    expect(summary.parentId).toBe(approachA.parentId);
    // pi 1.6: the leaf that was left (0.73 wrote the new parent).
    expect(summary.fromId).toBe(left);
    expect(summary.summary).toMatch(/^The user explored a different conversation branch/);
    // As pi: the picked prompt goes back to the editor and is not part of what is summarised.
    expect(summary.summary).not.toContain('> try approach A');
    expect(h.store.getLabel(summary.id)).toBe('approach A');
    expect(h.session.getContextMessages().at(-1)?.role).toBe('branchSummary');
    await h.session.prompt('try approach B');
    await expectPiAgrees(h);
  });

  it('an aborted branch summary leaves the leaf and the file as they were', async () => {
    h = await openCompactionHarness({ serverWindow: 128_000, chunkDelayMs: 15 });
    await h.session.prompt('first path');
    const first = pathEntries(h).find(
      (e) => e.type === 'message' && e.message.role === 'assistant',
    )!;
    await h.session.prompt(`second path ${'s'.repeat(300)}`);
    const leaf = h.store.getLeafId();
    const bytes = fs.readFileSync(h.store.file!);

    const moving = h.session.navigateTree(first.id, { summarize: true });
    const harness = h;
    await new Promise<void>((resolve) => {
      const check = () =>
        harness.session.getState().isCompacting ? resolve() : setTimeout(check, 5);
      check();
    });
    await h.session.abort();

    await expect(moving).resolves.toMatchObject({ cancelled: true });
    expect(h.store.getLeafId()).toBe(leaf);
    expect(fs.readFileSync(h.store.file!)).toEqual(bytes);
  });

  it('obeys a workspace setting that turns compaction off', async () => {
    h = await openCompactionHarness({
      serverWindow: 4000,
      workspaceSettings: { compaction: { enabled: false } },
    });
    for (let i = 0; i < 12; i++) await h.session.prompt(`turn ${i} ${'y'.repeat(800)}`);
    expect(compactionEvents(h.events).filter((e) => e.type === 'compaction_start')).toEqual([]);
    expect(h.calls.some((c) => c.stopReason === 'error')).toBe(true);
  });
});

describe('soak', () => {
  it('200 turns in a 4,000-token window: never over the window, never looping, latest prompt kept', async () => {
    h = await openCompactionHarness({ serverWindow: 4000 });
    fs.writeFileSync(path.join(h.workspace, 'notes.txt'), 'note line\n'.repeat(150));
    const rand = prng(3);
    let lastPrompt = '';
    for (let i = 0; i < 200; i++) {
      const length = 20 + Math.floor(rand() * 1200);
      lastPrompt = `Request ${i}: ${'lorem ipsum dolor '.repeat(Math.ceil(length / 18)).slice(0, length)}`;
      if (i % 10 === 5) lastPrompt += '\n/tool read {"path":"notes.txt"}';
      if (i % 7 === 3) lastPrompt += `\nsecond line of request ${i}`;
      await h.session.prompt(lastPrompt);
    }

    const largest = Math.max(...h.calls.map((c) => c.promptTokens));
    expect(largest).toBeLessThanOrEqual(4000);
    expect(h.calls.filter((c) => c.stopReason === 'error')).toEqual([]);
    const ends = h.events.filter((e) => e.type === 'compaction_end');
    expect(ends.length).toBeGreaterThan(10);
    expect(ends.every((e) => e.type === 'compaction_end' && e.result && !e.errorMessage)).toBe(
      true,
    );
    // Never looping: at most three compactions for any one model call, and never two in a row
    // on the path without a message between them.
    const entries = pathEntries(h);
    for (let i = 1; i < entries.length; i++) {
      expect(entries[i]?.type === 'compaction' && entries[i - 1]?.type === 'compaction').toBe(
        false,
      );
    }
    expect(ends.length).toBeLessThanOrEqual(3 * h.calls.filter((c) => c.kind === 'agent').length);
    expect(userTexts(h)).toContain(lastPrompt);
    await expectPiAgrees(h);
  }, 180_000);
});
