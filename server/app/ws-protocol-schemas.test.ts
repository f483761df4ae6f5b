import { describe, expect, it } from 'vitest';
import type { AgentSessionEvent, SessionState } from '../../shared/agent-events.js';
import {
  CommandResultSchemas,
  ServerMessageSchema,
  type CommandResults,
  type EventFrame,
} from '../../shared/protocol.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * A real session over a real WebSocket (prompts with tool calls, a compaction, a leaf move with a
 * branch summary, a fork), every frame the server sends checked against the protocol's schemas,
 * and every answer against the schema of its command's result.
 */

const tests = serverPerTest();

type Sent = { type: keyof CommandResults } & Record<string, unknown>;

describe('every frame of a real session', () => {
  it('matches the protocol schemas, message_end names its entry and the state is pushed', async () => {
    const server = await tests.start();
    const c = await tests.open();
    const raw: unknown[] = [];
    c.socket.on('message', (data) => raw.push(JSON.parse(String(data))));
    const problems: string[] = [];
    /** Sends a command and checks its answer against its result's schema. */
    const ok = async <T extends keyof CommandResults>(command: Sent & { type: T }) => {
      const data = await c.ok(command);
      const parsed = CommandResultSchemas[command.type].safeParse(data);
      if (!parsed.success) problems.push(`${command.type}: ${parsed.error.message}`);
      return data as CommandResults[T];
    };

    const { sessionId } = await ok({ type: 'new_session', workspaceId: server.workspaceId });
    await ok({ type: 'subscribe', sessionId });
    const settled = (): Promise<unknown> =>
      c.next(
        (m) =>
          m.type === 'event' &&
          m.sessionId === sessionId &&
          m.event.type === 'state_changed' &&
          !m.event.state.isStreaming,
      );
    for (const text of [
      'look around\n/tool ls {"path":"."}\n/tool bash {"command":"echo from-bash"}',
      'second question',
      'third question',
    ]) {
      const done = settled();
      await ok({ type: 'prompt', sessionId, text });
      await done;
    }
    await ok({ type: 'set_thinking_level', sessionId, level: 'high' });
    await ok({ type: 'set_session_name', sessionId, name: 'schemas' });
    const compacted = c.waitForEvent(sessionId, 'state_changed');
    await ok({ type: 'compact', sessionId });
    const afterCompaction = (await compacted) as EventFrame;

    const { tree } = await ok({ type: 'get_tree', sessionId });
    const users = tree.filter((node) => node.role === 'user');
    const moved = c.waitForEvent(sessionId, 'state_changed');
    await ok({
      type: 'navigate_tree',
      sessionId,
      targetId: users[1]!.id,
      summarize: true,
      label: 'retry',
    });
    const afterSummary = (await moved) as EventFrame;
    const plainMove = c.waitForEvent(sessionId, 'state_changed');
    await ok({ type: 'navigate_tree', sessionId, targetId: users[2]!.id });
    const afterMove = (await plainMove) as EventFrame;
    await ok({ type: 'set_label', sessionId, entryId: users[0]!.id, label: 'start' });
    const state = await ok({ type: 'get_state', sessionId });
    await ok({ type: 'get_entries', sessionId, ids: tree.map((node) => node.id) });
    await ok({ type: 'get_path', sessionId, entryId: users[0]!.id });
    const fork = await ok({ type: 'fork', sessionId, entryId: users[0]!.id });
    await ok({ type: 'subscribe', sessionId: fork.sessionId });
    const clone = await ok({ type: 'clone', sessionId });
    await ok({ type: 'switch_session', sessionId: clone.sessionId });
    await ok({ type: 'ping' });

    // Every frame the server sent reads with the protocol's schema.
    const unreadable = raw.flatMap((frame) => {
      const parsed = ServerMessageSchema.safeParse(frame);
      return parsed.success ? [] : [`${JSON.stringify(frame).slice(0, 200)}: ${parsed.error}`];
    });
    expect(unreadable).toEqual([]);
    expect(problems).toEqual([]);

    const events: AgentSessionEvent[] = c.events(sessionId).map((frame) => frame.event);
    const types = new Set(events.map((event) => event.type));
    for (const type of [
      'tool_execution_start',
      'tool_execution_end',
      'compaction_start',
      'compaction_end',
      'leaf_moved',
      'label_changed',
      'session_info_changed',
      'state_changed',
    ] as const)
      expect(types, type).toContain(type);

    // Each saved message's message_end names the entry appended just before it.
    const ends = events.flatMap((event, i) => (event.type === 'message_end' ? [i] : []));
    expect(ends.length).toBeGreaterThan(6);
    for (const i of ends) {
      const [appended, end] = [events[i - 1], events[i]];
      if (end?.type !== 'message_end' || appended?.type !== 'entry_appended')
        throw new Error(`event ${i}: no entry_appended before message_end`);
      expect(end.entryId).toBe(appended.node.id);
      expect(appended.node.role).toBe(end.message.role);
    }

    // The state comes pushed after each run, the compaction and the leaf move, as get_state says.
    const pushed = (frame: EventFrame): SessionState => {
      if (frame.event.type !== 'state_changed') throw new Error('not a state');
      return frame.event.state;
    };
    expect(pushed(afterCompaction)).toMatchObject({
      isCompacting: false,
      contextUsage: { estimated: true },
    });
    expect(pushed(afterSummary).leafId).not.toBe(pushed(afterCompaction).leafId);
    // A user message's leaf move goes to its parent (its text returns to the editor).
    expect(pushed(afterMove).leafId).toBe(users[2]!.parentId);
    // The leaf then moved with the label's entry: the tree's events carry the leaf from there.
    const last = events.findLast((event) => event.type === 'state_changed');
    const label = events.findLast((event) => event.type === 'entry_appended');
    expect(last?.type === 'state_changed' && { ...last.state, leafId: state.leafId }).toEqual(
      state,
    );
    expect(label?.type === 'entry_appended' && label.node.id).toBe(state.leafId);
    expect(state.cost).toBeGreaterThanOrEqual(0);
  });
});
