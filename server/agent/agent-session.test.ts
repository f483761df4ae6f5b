import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage, AssistantMessage, ToolCall } from '../../shared/messages.js';
import { contentText } from '../../shared/messages.js';
import { SessionStore } from '../store/session-store.js';
import { SessionBusyError } from './session-errors.js';
import { toProviderMessages } from '../models/convert-to-llm.js';
import { eventTrace, startHarness, type Harness } from '../test-support/agent-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function assistants(messages: AgentMessage[]): AssistantMessage[] {
  return messages.filter((m): m is AssistantMessage => m.role === 'assistant');
}

function lastText(messages: AgentMessage[]): string {
  const last = assistants(messages).at(-1);
  return last?.content.map((b) => (b.type === 'text' ? b.text : '')).join('') ?? '';
}

/** Every tool call on the path has a toolResult with its id. */
function unansweredCalls(messages: AgentMessage[]): string[] {
  const answered = new Set(
    messages.flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])),
  );
  return assistants(messages)
    .flatMap((m) => m.content.filter((b): b is ToolCall => b.type === 'toolCall'))
    .map((c) => c.id)
    .filter((id) => !answered.has(id));
}

describe('agent session over the demo model', () => {
  it('starts a new session with model_change and thinking_level_change, as pi does', async () => {
    const { session } = await h.open();
    const types = session.store.getTree().map((n) => n.type);
    expect(types).toEqual(['model_change', 'thinking_level_change']);
  });

  it('runs the tool loop in pi event order and persists every message', async () => {
    fs.writeFileSync(path.join(h.workspace, 'notes.txt'), 'first note\nsecond');
    const { session, events } = await h.open();
    await session.prompt(
      'look around\n/tool read {"path":"notes.txt"}\n/tool bash {"command":"echo from-bash"}',
    );
    const arbors = new Set(['entry_appended', 'state_changed']);
    expect(eventTrace(events).filter((t) => !arbors.has(t))).toEqual([
      'agent_start',
      'turn_start',
      // The prompt and tools, recorded before the first request (pi 1.6).
      'message_start:system',
      'message_end:system',
      'message_start:user',
      'message_end:user',
      'message_start:assistant',
      'message_end:assistant',
      'tool_execution_start',
      'tool_execution_start',
      'tool_execution_end',
      'tool_execution_end',
      'message_start:toolResult',
      'message_end:toolResult',
      'message_start:toolResult',
      'message_end:toolResult',
      'turn_end',
      'turn_start',
      'message_start:assistant',
      'message_end:assistant',
      'turn_end',
      'agent_end',
    ]);
    const context = session.getContextMessages();
    expect(lastText(context)).toBe('Tool results:\n- read: "first note"\n- bash: "from-bash"');
    // Each message_end names the entry appended for it, which comes just before it.
    const ends = events.flatMap((e, i) => (e.type === 'message_end' ? [i] : []));
    for (const i of ends) {
      const [appended, end] = [events[i - 1], events[i]];
      if (appended?.type !== 'entry_appended' || end?.type !== 'message_end')
        throw new Error(`no entry_appended before message_end ${i}`);
      expect(end.entryId).toBe(appended.node.id);
      const entry = session.store.getEntry(appended.node.id);
      expect(entry?.type === 'message' && entry.message).toEqual(end.message);
    }
    // The state follows each turn and the run's end, computed by the server.
    const states = events.flatMap((e) => (e.type === 'state_changed' ? [e.state] : []));
    expect(states.map((state) => state.isStreaming)).toEqual([true, true, false]);
    expect(states.at(-1)).toEqual(session.getState());
    const reopened = SessionStore.openReadOnly(session.store.file!);
    try {
      expect(reopened.buildSessionContext().messages).toEqual(context);
    } finally {
      reopened.close();
    }
  });

  it('message_update carries only the delta', async () => {
    const { session, events } = await h.open();
    await session.prompt('stream me please');
    const updates = events.filter((e) => e.type === 'message_update');
    expect(updates.length).toBeGreaterThan(2);
    for (const update of updates)
      expect(Object.keys(update).sort()).toEqual(['assistantMessageEvent', 'type']);
    const text = updates
      .map((u) =>
        u.assistantMessageEvent.type === 'text_delta' ? u.assistantMessageEvent.delta : '',
      )
      .join('');
    expect(text).toBe('You said: "stream me please"');
  });

  it('refuses a second prompt while running', async () => {
    const { session } = await h.open();
    const running = session.prompt('slow one\n/slow 30');
    await expect(session.prompt('again')).rejects.toBeInstanceOf(SessionBusyError);
    await expect(session.navigateTree(null)).rejects.toMatchObject({ code: 'session_busy' });
    await running;
  });

  it('a steer during a slow tool is delivered after the tool batch, which still runs', async () => {
    const { session, waitFor } = await h.open();
    const running = session.prompt(
      'work\n/tool bash {"command":"sleep 0.4; echo slept"}\n/tool ls {}',
    );
    await waitFor((e) => e.type === 'tool_execution_start');
    session.steer('change of plan');
    await running;
    const roles = session.getContextMessages().map((m) => m.role);
    expect(roles.slice(-5)).toEqual(['assistant', 'toolResult', 'toolResult', 'user', 'assistant']);
    const context = session.getContextMessages();
    const results = context.filter((m) => m.role === 'toolResult');
    expect(results.every((r) => r.role === 'toolResult' && !r.isError)).toBe(true);
    expect(lastText(context)).toBe('You said: "change of plan"');
    const steerIndex = context.findIndex(
      (m) => m.role === 'user' && JSON.stringify(m.content).includes('change of plan'),
    );
    expect(context[steerIndex - 1]?.role).toBe('toolResult');
    expect(session.getState().steering).toEqual([]);
  });

  it('a follow-up waits until the agent would stop, then runs in the same run', async () => {
    const { session, events, waitFor } = await h.open();
    const running = session.prompt('first question\n/slow 20');
    await waitFor((e) => e.type === 'message_start' && e.message.role === 'assistant');
    session.followUp('second question');
    await running;
    expect(events.filter((e) => e.type === 'agent_start')).toHaveLength(1);
    const context = session.getContextMessages();
    expect(assistants(context).map((m) => lastText([m]))).toEqual([
      'You said: "first question"',
      'You said: "second question"',
    ]);
    expect(events.some((e) => e.type === 'queue_update' && e.followUp.length === 0)).toBe(true);
  });

  it('takes one queued follow-up back with its images, and only the one asked for', async () => {
    const { session, waitFor } = await h.open();
    const running = session.prompt('first question\n/slow 20');
    await waitFor((e) => e.type === 'message_start' && e.message.role === 'assistant');
    const image = { type: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    session.followUp('keep me');
    session.followUp('take me back', [image]);
    session.followUp('keep me too');
    expect(() => session.dequeue('followUp', 0, 'take me back')).toThrow(/no longer in the queue/);
    expect(session.getState().followUp).toEqual(['keep me', 'take me back', 'keep me too']);
    expect(session.dequeue('followUp', 1, 'take me back')).toEqual({
      text: 'take me back',
      images: [image],
    });
    expect(session.getState().followUp).toEqual(['keep me', 'keep me too']);
    await running;
    const prompts = session
      .getContextMessages()
      .flatMap((m) => (m.role === 'user' ? [contentText(m.content)] : []));
    expect(prompts).toEqual(['first question\n/slow 20', 'keep me', 'keep me too']);
  });

  it('abort while streaming ends the message as aborted and persists it', async () => {
    const { session, waitFor } = await h.open();
    const running = session.prompt('a slow answer with many words to stream\n/slow 100');
    await waitFor((e) => e.type === 'message_update');
    await session.abort();
    await running;
    const last = assistants(session.getContextMessages()).at(-1)!;
    expect(last.stopReason).toBe('aborted');
    expect(last.errorMessage).toBe('Request was aborted.');
    expect(last.content.length).toBeGreaterThan(0);
    expect(session.getState().isStreaming).toBe(false);
    // The next prompt works and does not send the aborted message to the model.
    await session.prompt('after abort');
    expect(lastText(session.getContextMessages())).toBe('You said: "after abort"');
  });

  it('abort during a slow bash kills it and every tool call keeps a result', async () => {
    const { session, waitFor } = await h.open();
    const running = session.prompt('run it\n/tool bash {"command":"sleep 30"}\n/tool ls {}');
    await waitFor((e) => e.type === 'tool_execution_start' && e.toolName === 'bash');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await session.abort();
    await running;
    const reopened = SessionStore.openReadOnly(session.store.file!);
    try {
      const messages = reopened.buildSessionContext().messages;
      expect(unansweredCalls(messages)).toEqual([]);
      const bash = messages.find((m) => m.role === 'toolResult' && m.toolName === 'bash');
      expect(bash).toMatchObject({ isError: true });
      expect(JSON.stringify(bash)).toContain('Command aborted');
    } finally {
      reopened.close();
    }
  });

  it('retries after a 503 with backoff and says so in events', async () => {
    const { session, events } = await h.open();
    await session.prompt('flaky service\n/fail 503');
    const start = events.find((e) => e.type === 'auto_retry_start');
    expect(start).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 5 });
    expect(events.find((e) => e.type === 'auto_retry_end')).toMatchObject({
      success: true,
      attempt: 1,
    });
    const trace = eventTrace(events).filter((t) => t !== 'entry_appended' && t !== 'state_changed');
    expect(
      trace.slice(trace.indexOf('auto_retry_start') - 3, trace.indexOf('auto_retry_start') + 6),
    ).toEqual([
      'message_end:assistant',
      'turn_end',
      'agent_end',
      'auto_retry_start',
      'agent_start',
      'turn_start',
      'message_start:assistant',
      'message_end:assistant',
      'auto_retry_end',
    ]);
    // As pi 1.6: the failed attempt stays in the file, and a context_edit keeps it out of the
    // context, so neither this session nor pi sends it again.
    const tree = session.store.getTree();
    const failed = tree.find((n) => n.role === 'assistant' && /^503/.test(n.preview))!;
    expect(failed).toBeDefined();
    const edit = session.store.getEntry(tree[tree.indexOf(failed) + 1]!.id);
    expect(edit).toMatchObject({ type: 'context_edit', targetId: failed.id, replacement: null });
    const stored = assistants(session.getContextMessages());
    expect(stored.map((m) => m.stopReason)).toEqual(['stop']);
    expect(lastText(session.getContextMessages())).toBe('You said: "flaky service"');
  });

  it('honours Retry-After on a 429', async () => {
    const { session, events } = await h.open();
    await session.prompt('rate limited\n/fail 429 30');
    expect(events.find((e) => e.type === 'auto_retry_start')).toMatchObject({
      attempt: 1,
      delayMs: 30,
    });
    expect(lastText(session.getContextMessages())).toBe('You said: "rate limited"');
  });

  it('gives up after the configured retries and reports the final error', async () => {
    const { session, events } = await h.open({
      settings: { retry: { maxRetries: 0, baseDelayMs: 1 } },
    });
    await session.prompt('no retries\n/fail 500');
    expect(events.find((e) => e.type === 'auto_retry_end')).toMatchObject({
      success: false,
      attempt: 0,
    });
    expect(assistants(session.getContextMessages()).at(-1)?.stopReason).toBe('error');
  });

  it('a stream cut mid-message is persisted as an error and the history stays valid', async () => {
    const { session, events } = await h.open({ settings: { retry: { enabled: false } } });
    await session.prompt('cut me\n/tool ls {}\n/tool find {"pattern":"*.txt"}\n/cut 6');
    const reopened = SessionStore.openReadOnly(session.store.file!);
    let messages: AgentMessage[];
    try {
      messages = reopened.buildSessionContext().messages;
    } finally {
      reopened.close();
    }
    const partial = assistants(messages).at(-1)!;
    expect(partial.stopReason).toBe('error');
    // Said once, with the connection's code: before, "… streaming (aborted) (aborted)".
    expect(partial.errorMessage).toMatch(
      /^Connection lost while the model was streaming \((ECONNRESET|ERR_STREAM_PREMATURE_CLOSE|EPIPE)\)( \(.*\))?$/,
    );
    expect(partial.errorMessage).not.toContain('aborted');
    expect(partial.content.some((b) => b.type === 'toolCall')).toBe(true);
    expect(events.some((e) => e.type === 'tool_execution_start')).toBe(false);
    // What the model is sent next pairs every tool call with a result.
    expect(unansweredCalls(toProviderMessages(messages) as AgentMessage[])).toEqual([]);
    await session.prompt('after the cut');
    expect(lastText(session.getContextMessages())).toBe('You said: "after the cut"');
  });

  it('a stream cut is retried like any dropped connection', async () => {
    const { session, events } = await h.open();
    await session.prompt('cut and retry\n/cut 3');
    expect(events.find((e) => e.type === 'auto_retry_end')).toMatchObject({ success: true });
    expect(lastText(session.getContextMessages())).toBe('You said: "cut and retry"');
  });

  it('an invalid tool call becomes an error result the model reads', async () => {
    const { session } = await h.open();
    await session.prompt('bad call\n/tool read {"nope":1}\n/tool teleport {}');
    const results = session.getContextMessages().filter((m) => m.role === 'toolResult');
    expect(results.map((r) => r.role === 'toolResult' && r.isError)).toEqual([true, true]);
    expect(JSON.stringify(results[0])).toContain('Validation failed for tool \\"read\\"');
    expect(JSON.stringify(results[1])).toContain('Tool teleport not found');
  });
});

describe('navigation, settings and state', () => {
  it('moves the leaf by pi rules and rebuilds the context', async () => {
    const { session } = await h.open({ compactor: null });
    await session.prompt('root question');
    await session.prompt('second question');
    const tree = session.store.getTree();
    const users = tree.filter((n) => n.role === 'user');
    const firstAssistant = tree.find((n) => n.role === 'assistant')!;

    const second = await session.navigateTree(users[1]!.id, { label: 'retry-here' });
    expect(second).toMatchObject({ cancelled: false, editorText: 'second question' });
    expect(session.getState().leafId).not.toBe(users[1]!.id);
    expect(session.store.getLabel(users[1]!.id)).toBe('retry-here');
    expect(lastText(session.getContextMessages())).toBe('You said: "root question"');

    const root = await session.navigateTree(users[0]!.id);
    expect(root.editorText).toBe('root question');
    // Only the prompt recorded before the first question is left.
    expect(session.getContextMessages().map((m) => m.role)).toEqual(['system']);
    expect(session.getContextMessages().some((m) => m.role === 'user')).toBe(false);

    await session.navigateTree(firstAssistant.id);
    expect(session.getState().leafId).toBe(firstAssistant.id);
    await session.prompt('a new branch');
    expect(
      session.store.getChildren(firstAssistant.id).filter((n) => n.role === 'user'),
    ).toHaveLength(2);
    await expect(session.navigateTree('nope')).rejects.toMatchObject({ code: 'entry_not_found' });
    await expect(
      session.navigateTree(firstAssistant.id, { summarize: true }),
    ).rejects.toMatchObject({
      code: 'not_supported',
    });
    await expect(session.compact()).rejects.toMatchObject({ code: 'not_supported' });
  });

  it('records model, thinking level, labels and names, and reports usage and cost', async () => {
    const { session, events } = await h.open();
    session.setThinkingLevel('high');
    expect(() => session.setThinkingLevel('extreme')).toThrow(/Unknown thinking level/);
    session.setModel({ provider: 'openai', modelId: 'gpt-4o' });
    expect(events.some((e) => e.type === 'model_changed' && e.modelId === 'gpt-4o')).toBe(true);
    // Neither model reasons: the level asked for waits for one that does.
    expect(session.getState().thinkingLevel).toBe('off');
    session.setModel({ provider: 'openai', modelId: 'o4-mini' });
    expect(session.getState().thinkingLevel).toBe('high');
    expect(session.store.buildSessionContext().thinkingLevel).toBe('high');
    session.setModel({ provider: 'arbor', modelId: 'arbor-demo' });
    session.setSessionName('  My session ');
    expect(session.store.getSessionName()).toBe('My session');
    expect(() => session.setSessionName('   ')).toThrow();
    await session.prompt('measure me');
    const state = session.getState();
    expect(state.thinkingLevel).toBe('off');
    expect(state.modelId).toBe('arbor-demo');
    expect(state.contextUsage.tokens).toBeGreaterThan(0);
    expect(state.contextUsage.contextWindow).toBe(128_000);
    expect(state.cost).toBe(0);
    const ctx = session.store.buildSessionContext();
    expect(ctx.thinkingLevel).toBe('off');
    expect(ctx.model).toEqual({ provider: 'arbor', modelId: 'arbor-demo' });
  });

  it('a model without a key fails as data with a clear message', async () => {
    const { session } = await h.open({
      model: { provider: 'openai', modelId: 'gpt-4o' },
      settings: { retry: { enabled: false } },
    });
    await session.prompt('hello');
    expect(assistants(session.getContextMessages()).at(-1)?.errorMessage).toMatch(
      /No API key for model openai\/gpt-4o/,
    );
  });
});
