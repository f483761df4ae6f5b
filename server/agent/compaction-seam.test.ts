import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../shared/messages.js';
import { estimateTokens } from '../compaction/token-estimates.js';
import type { Compactor, ContextStep } from '../compaction/context-transforms.js';
import { startHarness, type Harness } from '../test-support/agent-harness.js';

/*
 * The seam compaction plugs into, exercised with a minimal compactor that asks the demo model for
 * a summary through the session's own CompleteFn and keeps only the last user message.
 */

const WINDOW = 4000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ contextWindow: WINDOW });
});
afterAll(async () => {
  await h.close();
});

const keepLastUser: Compactor = {
  async compact(ctx, { customInstructions }) {
    const branch = ctx.store.getBranch();
    const lastUser = [...branch]
      .reverse()
      .find((e) => e.type === 'message' && e.message.role === 'user');
    if (!lastUser) throw new Error('Nothing to compact (session too small)');
    const reply = await ctx.complete(
      {
        systemPrompt: 'You are a context summarization assistant.',
        messages: [
          {
            role: 'user',
            content: `<conversation>\n[User]: earlier work\n</conversation>\n\n## Goal\n${customInstructions ?? ''}`,
            timestamp: Date.now(),
          },
        ],
        maxTokens: 100,
      },
      ctx.signal,
    );
    if (reply.stopReason === 'error') throw new Error(reply.errorMessage);
    const summary = reply.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const tokensBefore = 123;
    ctx.store.appendCompaction(
      summary,
      lastUser.id,
      tokensBefore,
      { readFiles: [], modifiedFiles: [] },
      false,
    );
    return { summary, firstKeptEntryId: lastUser.id, tokensBefore };
  },
  async summarizeBranch() {
    return { summary: 'The branch explored nothing of note.' };
  },
};

function roles(messages: AgentMessage[]): string[] {
  return messages.map((m) => m.role);
}

describe('compaction seam', () => {
  it('compact() asks the compactor, emits compaction events and rebuilds the context', async () => {
    const { session, events } = await h.open({ compactor: keepLastUser });
    await session.prompt('one');
    await session.prompt('two');
    const result = await session.compact('focus');
    expect(result.summary).toBe('## Goal\nThe user asked: "earlier work"');
    expect(
      events
        .filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end')
        .map((e) => e.type),
    ).toEqual(['compaction_start', 'compaction_end']);
    expect(roles(session.getContextMessages())).toEqual([
      'system',
      'compactionSummary',
      'user',
      'assistant',
    ]);
    // The meter has a figure at once: the estimate of the new context, not pi's "unknown".
    const estimate = session
      .getContextMessages()
      .reduce((sum, message) => sum + estimateTokens(message), 0);
    expect(estimate).toBeGreaterThan(0);
    expect(session.getState().contextUsage).toMatchObject({ tokens: estimate, estimated: true });
  });

  it('recovers from a context overflow by compacting once and continuing', async () => {
    const { session, events } = await h.open({ compactor: keepLastUser });
    await session.prompt('probe');
    const probe = session.getContextMessages().at(-1);
    const base = probe?.role === 'assistant' ? probe.usage.input + probe.usage.cacheRead : 0;
    const room = WINDOW - base;
    await session.prompt('x'.repeat(Math.floor(room * 0.7 * 4)));
    await session.prompt('y'.repeat(Math.floor(room * 0.5 * 4)));
    const end = events.find((e) => e.type === 'compaction_end');
    expect(end).toMatchObject({ reason: 'overflow', willRetry: true, aborted: false });
    const context = session.getContextMessages();
    // As pi 1.6: the overflowed attempt is omitted by a context_edit, kept in the file.
    expect(roles(context)).toEqual(['system', 'compactionSummary', 'user', 'assistant']);
    expect(context.at(-1)).toMatchObject({ stopReason: 'stop' });
    const tree = session.store.getTree();
    const failed = tree.filter((n) => n.role === 'assistant').at(-2)!;
    expect(session.store.getEntry(failed.id)).toMatchObject({ message: { stopReason: 'error' } });
    expect(
      tree.some((n) => {
        const entry = session.store.getEntry(n.id);
        return entry?.type === 'context_edit' && entry.targetId === failed.id;
      }),
    ).toBe(true);
  });

  it('context steps run before every model call and may compact', async () => {
    let seen = 0;
    const step: ContextStep = async (messages, ctx) => {
      seen++;
      if (seen === 2) return (await ctx.compact('threshold')) ?? messages;
      return messages;
    };
    const { session, events } = await h.open({ compactor: keepLastUser, contextSteps: [step] });
    await session.prompt('first');
    await session.prompt('second');
    expect(events.find((e) => e.type === 'compaction_start')).toMatchObject({
      reason: 'threshold',
    });
    expect(roles(session.getContextMessages())[1]).toBe('compactionSummary');
  });

  it('navigateTree with summarize appends a branch summary at the new position', async () => {
    const { session } = await h.open({ compactor: keepLastUser });
    await session.prompt('alpha');
    const firstAssistant = session.store.getTree().find((n) => n.role === 'assistant')!;
    await session.prompt('beta');
    const result = await session.navigateTree(firstAssistant.id, {
      summarize: true,
      label: 'back',
    });
    expect(result.cancelled).toBe(false);
    const leaf = session.store.getEntry(session.getState().leafId!);
    expect(leaf?.type).toBe('label');
    const context = session.getContextMessages();
    expect(roles(context).at(-1)).toBe('branchSummary');
  });
});
