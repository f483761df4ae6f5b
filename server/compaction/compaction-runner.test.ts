import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../shared/agent-events.js';
import type { AgentMessage } from '../../shared/messages.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { SessionStore } from '../store/session-store.js';
import { DEFAULT_SUMMARY_SETTINGS, type SummarySettings } from './compaction-settings.js';
import {
  CompactionBusyError,
  CompactionLoopError,
  CompactionRunner,
  type RunnerModel,
} from './compaction-runner.js';
import { estimateTokens } from './token-estimates.js';
import { demoComplete, type RecordingComplete } from './test-support/demo-complete.js';
import { assistantMessage, TurnWriter, userMessage } from './test-support/session-builder.js';

/*
 * The compaction runner against a real session file and the demo model over HTTP.
 */

let tmp: string;
let demo: RunningDemoModel | undefined;
let store: SessionStore;
let events: AgentEvent[];

function settings(compaction: Partial<SummarySettings['compaction']> = {}): SummarySettings {
  return {
    compaction: { ...DEFAULT_SUMMARY_SETTINGS.compaction, ...compaction },
    branchSummary: { reserveTokens: 16384 },
  };
}

function model(contextWindow = 128_000): RunnerModel {
  return {
    id: 'arbor-demo',
    provider: 'arbor',
    contextWindow,
    maxOutputTokens: 4096,
    reasoning: false,
  };
}

async function setup(opts: {
  contextWindow?: number;
  chunkDelayMs?: number;
  summary?: SummarySettings;
}): Promise<{ runner: CompactionRunner; recorder: RecordingComplete; rebuilt: AgentMessage[][] }> {
  demo = await startDemoModel({
    contextWindow: opts.contextWindow ?? 128_000,
    chunkDelayMs: opts.chunkDelayMs ?? 0,
  });
  const recorder = demoComplete(demo.baseUrl);
  const rebuilt: AgentMessage[][] = [];
  const runner = new CompactionRunner({
    store,
    getModel: () => model(opts.contextWindow),
    complete: recorder.complete,
    emit: (event) => events.push(event),
    getSettings: () => opts.summary ?? settings({ keepRecentTokens: 400 }),
    onContextRebuilt: (messages) => rebuilt.push(messages),
  });
  return { runner, recorder, rebuilt };
}

function requestText(recorder: RecordingComplete, index: number): string {
  const message = recorder.requests[index]?.messages[0];
  if (!message || typeof message.content === 'string') return String(message?.content ?? '');
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** pi's own reading of our file must give the same context as ours. */
function expectPiAgrees(): void {
  const copy = path.join(tmp, 'pi-copy.jsonl');
  fs.copyFileSync(store.file!, copy);
  const pi = SessionManager.open(copy, tmp);
  expect(pi.buildSessionContext()).toEqual(store.buildSessionContext());
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-compaction-'));
  store = SessionStore.create({ cwd: tmp, sessionDir: path.join(tmp, 'sessions') });
  events = [];
});

afterEach(async () => {
  store.close();
  await demo?.close();
  demo = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('manual compaction', () => {
  it('appends one compaction with the checkpoint sections, file lists and verbatim request', async () => {
    const { runner, recorder, rebuilt } = await setup({});
    const writer = new TurnWriter(store);
    for (let i = 0; i < 6; i++)
      writer.turn(`task${i} please fix it\nsecond line of request ${i}`, { tools: 2 });
    const before = store.getTree().length;

    const result = await runner.compact('focus on the tests');

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
    const kept = store.getEntry(entry.firstKeptEntryId);
    expect(kept?.type === 'message' && kept.message.role !== 'toolResult').toBe(true);
    // The latest summarised request is in the summary in full (the demo keeps only first lines).
    const summarised = store
      .getBranch()
      .slice(
        0,
        store.getBranch().findIndex((e) => e.id === entry.firstKeptEntryId),
      )
      .filter((e) => e.type === 'message' && e.message.role === 'user');
    const last = summarised[summarised.length - 1];
    expect(last?.type === 'message' && last.message.role === 'user').toBe(true);
    if (last?.type === 'message' && last.message.role === 'user') {
      const text = (last.message.content as { text: string }[])[0]!.text;
      expect(entry.summary).toContain(text.split('\n')[1]);
    }
    expect(requestText(recorder, 0)).toContain('Additional focus: focus on the tests');
    expect(events.map((e) => e.type)).toEqual(['compaction_start', 'compaction_end']);
    expect(events[1]).toMatchObject({ reason: 'manual', aborted: false, willRetry: false, result });
    expect(rebuilt[0]?.[0]?.role).toBe('compactionSummary');
    expect(result.tokensBefore).toBeGreaterThan(0);
    expectPiAgrees();
  });

  it('refuses with "Already compacted" and "Nothing to compact", appending nothing', async () => {
    const { runner } = await setup({});
    const writer = new TurnWriter(store);
    writer.turn('tiny');
    await expect(runner.compact()).rejects.toThrow('Nothing to compact (session too small)');
    for (let i = 0; i < 5; i++) writer.turn(`more${i}`, { resultChars: 800 });
    await runner.compact();
    const count = store.getTree().length;
    await expect(runner.compact()).rejects.toThrow('Already compacted');
    expect(store.getTree().length).toBe(count);
    const ends = events.filter((e) => e.type === 'compaction_end');
    expect(ends.map((e) => e.type === 'compaction_end' && e.errorMessage)).toEqual([
      'Compaction failed: Nothing to compact (session too small)',
      undefined,
      'Compaction failed: Already compacted',
    ]);
  });

  it('builds on the previous summary, starting at its first kept entry, with cumulative files', async () => {
    const { runner, recorder } = await setup({});
    const writer = new TurnWriter(store);
    for (let i = 0; i < 5; i++) writer.turn(`alpha${i} job`, { tools: 2 });
    const first = await runner.compact();
    const firstKept = store.getEntry(first.firstKeptEntryId);
    for (let i = 0; i < 5; i++) writer.turn(`beta${i} job`, { tools: 2 });
    const asked = recorder.requests.length;
    const second = await runner.compact();

    const prompt = requestText(recorder, asked);
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
    expectPiAgrees();
  });

  it('splits a turn larger than the kept budget and keeps its request verbatim', async () => {
    const { runner, recorder } = await setup({ summary: settings({ keepRecentTokens: 600 }) });
    const writer = new TurnWriter(store);
    writer.turn('warmup task', { tools: 1 });
    const request = 'refactor the parser\nand keep every test green\n(third line)';
    writer.turn(request, { tools: 12, resultChars: 600 });

    const result = await runner.compact();

    expect(recorder.requests.length).toBe(2);
    expect(result.summary).toContain('**Turn Context (split turn):**');
    const [, prefix] = result.summary.split('**Turn Context (split turn):**');
    expect(prefix).toContain('> refactor the parser\n> and keep every test green\n> (third line)');
    expect(recorder.requests.some((r) => JSON.stringify(r).includes('## Original Request'))).toBe(
      true,
    );
    const kept = store.getEntry(result.firstKeptEntryId);
    expect(kept?.type === 'message' && kept.message.role).toBe('assistant');
    expectPiAgrees();
  });

  it('fits a summary request that is too long for the model by pruning and shedding', async () => {
    const { runner, recorder } = await setup({
      contextWindow: 3000,
      summary: settings({ keepRecentTokens: 300, reserveTokens: 600 }),
    });
    const writer = new TurnWriter(store);
    for (let i = 0; i < 60; i++) writer.turn(`item${i} step`, { tools: 2, resultChars: 1500 });

    await runner.compact();

    const prompt = requestText(recorder, 0);
    expect(prompt).toMatch(/\[Earlier material omitted: \d+ older messages?/);
    expect(prompt).toContain('[User]: item0 step');
    expect(recorder.promptTokens.length).toBe(recorder.requests.length);
    for (const tokens of recorder.promptTokens) expect(tokens).toBeLessThanOrEqual(3000);
    expectPiAgrees();
  });

  it('leaves the file untouched and says why when the model cannot be reached', async () => {
    const { runner } = await setup({});
    await demo!.close();
    demo = undefined;
    const writer = new TurnWriter(store);
    for (let i = 0; i < 5; i++) writer.turn(`job${i}`, { resultChars: 800 });
    const bytes = fs.readFileSync(store.file!);

    await expect(runner.compact()).rejects.toThrow(/Summarization failed/);

    expect(fs.readFileSync(store.file!)).toEqual(bytes);
    const end = events.find((e) => e.type === 'compaction_end');
    expect(end).toMatchObject({
      aborted: false,
      errorMessage: expect.stringMatching(/^Compaction failed: Summarization failed/),
    });
    expect(runner.isCompacting).toBe(false);
  });

  it('can be aborted, leaving the session exactly as it was', async () => {
    const { runner } = await setup({ chunkDelayMs: 20 });
    const writer = new TurnWriter(store);
    for (let i = 0; i < 5; i++) writer.turn(`job${i}`, { resultChars: 800 });
    const bytes = fs.readFileSync(store.file!);
    const leaf = store.getLeafId();

    const running = runner.compact();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runner.isCompacting).toBe(true);
    runner.abort();

    await expect(running).rejects.toThrow(/cancelled/i);
    expect(fs.readFileSync(store.file!)).toEqual(bytes);
    expect(store.getLeafId()).toBe(leaf);
    expect(events[events.length - 1]).toEqual({
      type: 'compaction_end',
      reason: 'manual',
      aborted: true,
      willRetry: false,
    });
  });
});

describe('branch summaries and navigation', () => {
  it('refuses to navigate while a compaction runs', async () => {
    const { runner } = await setup({ chunkDelayMs: 20 });
    const writer = new TurnWriter(store);
    for (let i = 0; i < 5; i++) writer.turn(`job${i}`, { resultChars: 800 });
    const running = runner.compact();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(runner.navigate(writer.ids[0]!)).rejects.toThrow(CompactionBusyError);
    await expect(runner.navigate(writer.ids[0]!)).rejects.toThrow(/navigation waits/);
    await running;
    expect(store.getEntry(store.getLeafId()!)?.type).toBe('compaction');
  });

  it('summarises the branch left behind at the new parent, with the preamble, files and label', async () => {
    const { runner, recorder } = await setup({});
    const writer = new TurnWriter(store);
    writer.turn('shared start');
    const forkPoint = store.getLeafId()!;
    const target = writer.user('a second prompt to edit');
    store.appendMessage(assistantMessage('answered', 100));
    writer.turn('explore option A\nwith details', { tools: 2 });

    const result = await runner.navigate(target, { summarize: true, label: 'option A' });

    expect(result.editorText).toBe('a second prompt to edit');
    const summaryEntry = store.getEntry(result.summaryEntryId!);
    expect(summaryEntry?.type).toBe('branch_summary');
    if (summaryEntry?.type !== 'branch_summary') return;
    // The label entry comes after the summary and so is the leaf (as in pi).
    expect(store.getEntry(store.getLeafId()!)).toMatchObject({
      type: 'label',
      parentId: summaryEntry.id,
    });
    // The target is a user message: the leaf goes to its parent, which the summary hangs from.
    expect(summaryEntry.parentId).toBe(forkPoint);
    expect(summaryEntry.fromId).toBe(summaryEntry.parentId);
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
    expect(requestText(recorder, 0)).toContain(
      'Write a structured summary of this conversation branch',
    );
    expect(requestText(recorder, 0)).not.toContain('[Tool result]');
    expectPiAgrees();
  });

  it('appends custom instructions, or lets them replace the default prompt', async () => {
    const { runner, recorder } = await setup({});
    const writer = new TurnWriter(store);
    const root = writer.user('first request');
    writer.turn('branch work', { tools: 1 });
    const leafA = store.getLeafId()!;

    await runner.navigate(root, { summarize: true, customInstructions: 'mention the files' });
    expect(requestText(recorder, 0)).toContain('Additional focus: mention the files');
    // A root user message: the leaf goes before the first entry and the summary says "root".
    const summary = store.getEntry(store.getLeafId()!);
    expect(summary?.type === 'branch_summary' && summary.fromId).toBe('root');
    expect(summary?.parentId).toBeNull();

    await runner.navigate(leafA, {
      summarize: true,
      customInstructions: '## Only This\nSay one thing.',
      replaceInstructions: true,
    });
    const prompt = requestText(recorder, 1);
    expect(prompt.endsWith('</conversation>\n\n## Only This\nSay one thing.')).toBe(true);
    expectPiAgrees();
  });

  it('moves without a summary when none is asked for, labelling the picked entry', async () => {
    const { runner, recorder } = await setup({});
    const writer = new TurnWriter(store);
    writer.turn('one');
    const assistantId = writer.ids[writer.ids.length - 1]!;
    writer.turn('two');
    const result = await runner.navigate(assistantId, { label: 'checkpoint' });
    expect(result).toEqual({ cancelled: false });
    expect(recorder.requests.length).toBe(0);
    expect(store.getLabel(assistantId)).toBe('checkpoint');
    expect(store.buildSessionContext().messages.at(-1)?.role).toBe('assistant');
  });
});

describe('automatic compaction', () => {
  it('compacts before a model call once the context crosses the threshold', async () => {
    const window = 4000;
    const { runner, rebuilt } = await setup({
      contextWindow: window,
      summary: settings({ reserveTokens: 1000, keepRecentTokens: 800 }),
    });
    const writer = new TurnWriter(store);
    for (let i = 0; i < 8; i++) writer.turn(`step${i} go`, { resultChars: 2000 });
    const messages = store.buildSessionContext().messages;
    messages.push(userMessage('next prompt'));
    store.appendMessage(messages[messages.length - 1]!);

    const out = await runner.transformContext(messages, {
      signal: new AbortController().signal,
      model: model(window),
    });

    expect(events[0]).toEqual({ type: 'compaction_start', reason: 'threshold' });
    expect(events[1]).toMatchObject({
      type: 'compaction_end',
      reason: 'threshold',
      aborted: false,
      willRetry: false,
    });
    expect(out[0]?.role).toBe('compactionSummary');
    expect(out).toEqual(rebuilt[0]);
    expect(out.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'next prompt' }],
    });
    expect(runner.contextTokens(out)).toBeLessThan(window - 1000);

    // Right after, the stale usage of kept messages does not trigger another compaction.
    const again = await runner.transformContext(out, {
      signal: new AbortController().signal,
      model: model(window),
    });
    expect(again).toBe(out);
    expect(events.length).toBe(2);
  });

  it('leaves the context alone below the threshold or when disabled', async () => {
    const { runner } = await setup({
      contextWindow: 4000,
      summary: settings({ enabled: false, reserveTokens: 1000 }),
    });
    const writer = new TurnWriter(store);
    for (let i = 0; i < 6; i++) writer.turn(`step${i}`, { resultChars: 1200 });
    const messages = store.buildSessionContext().messages;
    const out = await runner.transformContext(messages, {
      signal: new AbortController().signal,
      model: model(4000),
    });
    expect(out).toBe(messages);
    expect(events).toEqual([]);
  });

  it('stops a turn whose compaction freed no room', async () => {
    const window = 4000;
    const { runner } = await setup({
      contextWindow: window,
      summary: settings({ reserveTokens: 1000, keepRecentTokens: 1000 }),
    });
    // A tiny old exchange, then one huge kept message: the summary is larger than what it replaces.
    store.appendMessage(userMessage('hi'));
    store.appendMessage(assistantMessage('ok', 10));
    const huge = userMessage(`please read this: ${'y'.repeat(14_000)}`);
    store.appendMessage(huge);
    const messages = store.buildSessionContext().messages;
    const before = store.getTree().length;

    await expect(
      runner.transformContext(messages, {
        signal: new AbortController().signal,
        model: model(window),
      }),
    ).rejects.toThrow(CompactionLoopError);
    expect(store.getTree().length).toBe(before + 1);
    expect(estimateTokens(huge)).toBeGreaterThan(window - 1000);
  });

  it('recovers from one overflow per user message and reports the second', async () => {
    const window = 4000;
    const { runner } = await setup({
      contextWindow: window,
      summary: settings({ reserveTokens: 1000, keepRecentTokens: 800 }),
    });
    const writer = new TurnWriter(store);
    for (let i = 0; i < 6; i++) writer.turn(`step${i}`, { resultChars: 1200 });
    const overflow = (): ReturnType<typeof assistantMessage> => ({
      ...assistantMessage('', 0),
      timestamp: Date.now(),
      stopReason: 'error',
      errorMessage: `400 This model's maximum context length is ${window} tokens. However, your messages resulted in 4500 tokens. Please reduce the length of the messages.`,
    });
    runner.beginUserMessage();
    store.appendMessage(userMessage('big question'));
    const failed = overflow();
    store.appendMessage(failed);

    expect(await runner.handleRunEnd(failed)).toBe('retry');
    expect(events.map((e) => e.type)).toEqual(['compaction_start', 'compaction_end']);
    expect(events[1]).toMatchObject({ reason: 'overflow', willRetry: true, aborted: false });
    expect(runner.rebuiltContext().at(-1)?.role).toBe('user');

    // A later answer (its timestamp after the compaction's, as any real answer's is).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = overflow();
    store.appendMessage(again);
    expect(await runner.handleRunEnd(again)).toBe('failed');
    expect(events.at(-1)).toMatchObject({
      type: 'compaction_end',
      reason: 'overflow',
      willRetry: false,
      errorMessage: expect.stringContaining(
        'Context overflow recovery failed after one compact-and-retry attempt',
      ),
    });

    // Another model's overflow, or an ordinary error, is not ours to handle.
    expect(await runner.handleRunEnd({ ...overflow(), model: 'other' })).toBe('none');
    expect(await runner.handleRunEnd({ ...overflow(), errorMessage: '503 server busy' })).toBe(
      'none',
    );
  });
});
