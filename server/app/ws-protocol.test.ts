import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION,
  type EventFrame,
  type ServerMessage,
  type Snapshot,
} from '../../shared/protocol.js';
import type { AgentMessage } from '../../shared/messages.js';
import type { TreeNode } from '../../shared/session-entries.js';
import { buildApp } from './build-app.js';
import { serverPerTest } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

const tests = serverPerTest();

function open({ url, ...opts }: Parameters<typeof WsTestClient.open>[1] & { url?: string } = {}) {
  return tests.open(opts, url);
}

/** A new session, subscribed by every client given (the first creates it). */
async function sharedSession(...subscribers: WsTestClient[]): Promise<string> {
  const [first] = subscribers;
  const { sessionId } = await (first as WsTestClient).ok<{ sessionId: string }>({
    type: 'new_session',
    workspaceId: tests.server.workspaceId,
  });
  for (const client of subscribers) await client.ok({ type: 'subscribe', sessionId });
  return sessionId;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

function assistantText(events: EventFrame[]): string {
  const end = events.findLast(
    (f) => f.event.type === 'message_end' && f.event.message.role === 'assistant',
  );
  if (!end || end.event.type !== 'message_end' || end.event.message.role !== 'assistant') return '';
  return end.event.message.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('event frames', () => {
  it('arrive whole and in order through ws, past 64 KiB and beyond ASCII', async () => {
    await tests.start();
    const client = await open();
    const sessionId = await sharedSession(client);
    const prompt = 'é🌳'.repeat(12_000); // frames over 64 KiB, beyond ASCII
    const ended = client.next(
      (m) => m.type === 'event' && m.event.type === 'agent_end' && m.sessionId === sessionId,
    );
    await client.ok({ type: 'prompt', sessionId, text: prompt });
    await ended;
    const events = client.events(sessionId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => (events[0]?.seq ?? 0) + i));
    expect(assistantText(events)).toBe(`You said: "${prompt}"`);
  });
});

describe('handshake', () => {
  it('answers a command before hello with hello_required, then accepts hello', async () => {
    const server = await tests.start();
    const client = tests.track(await WsTestClient.connect(server.wsUrl));
    const early = client.next((m) => m.type === 'response');
    client.send({ type: 'ping', id: 'p1' });
    expect(await early).toMatchObject({ id: 'p1', ok: false, error: { code: 'hello_required' } });
    const welcome = client.next((m) => m.type === 'welcome');
    client.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION });
    expect(await welcome).toMatchObject({
      user: { name: 'local', role: 'admin' },
      server: { name: 'arbor', authRequired: false },
    });
  });

  it('closes with 4002 when the protocol versions differ', async () => {
    const server = await tests.start();
    const client = tests.track(await WsTestClient.connect(server.wsUrl));
    const error = client.next((m) => m.type === 'error');
    client.send({ type: 'hello', protocolVersion: 99 });
    expect(await error).toMatchObject({ code: 'protocol_version' });
    expect(await client.closed()).toBe(4002);
  });

  it('refuses the upgrade from another origin, and allows its own and configured ones', async () => {
    const server = await tests.start({ config: { allowedOrigins: ['https://arbor.example'] } });
    await expect(
      WsTestClient.connect(server.wsUrl, { origin: 'http://evil.example' }),
    ).rejects.toThrow(/upgrade refused: 403/);
    await expect(
      WsTestClient.connect(server.wsUrl, {
        origin: `http://localhost:${new URL(server.url).port}`,
      }),
    ).rejects.toThrow(/upgrade refused: 403/);
    await open({ origin: server.url });
    await open({ origin: 'https://arbor.example' });
  });
});

describe('streaming to several clients', () => {
  it('gives two clients of one session identical, gapless, ordered events', async () => {
    await tests.start();
    const a = await open();
    const b = await open();
    const sessionId = await sharedSession(a, b);
    const doneA = a.waitForEvent(sessionId, 'agent_end');
    const doneB = b.waitForEvent(sessionId, 'agent_end');
    await a.ok({ type: 'prompt', sessionId, text: `${words(30)}\n/slow 2` });
    await Promise.all([doneA, doneB]);
    const eventsA = a.events(sessionId);
    const eventsB = b.events(sessionId);
    expect(eventsA.length).toBeGreaterThan(5);
    expect(eventsB).toEqual(eventsA);
    const snapshotSeq = (a.frames.find((m) => m.type === 'snapshot') as Snapshot).seq;
    expect(eventsA.map((f) => f.seq)).toEqual(eventsA.map((_, i) => snapshotSeq + 1 + i));
    expect(assistantText(eventsA)).toBe(`You said: "${words(30)}"`);
    const types = eventsA.map((f) => f.event.type);
    expect(types).toContain('entry_appended');
    expect(types.indexOf('agent_start')).toBeLessThan(types.indexOf('agent_end'));
  });

  it('sends a reconnecting client exactly the events it missed', async () => {
    await tests.start();
    const observer = await open();
    let a = await open();
    const sessionId = await sharedSession(observer, a);
    const finished = observer.waitForEvent(sessionId, 'agent_end');
    const someDeltas = a.next(
      (m) =>
        m.type === 'event' &&
        m.event.type === 'message_update' &&
        a.events(sessionId).filter((f) => f.event.type === 'message_update').length >= 3,
    );
    await a.ok({ type: 'prompt', sessionId, text: `${words(40)}\n/slow 25` });
    await someDeltas;
    const before = [...a.events(sessionId)];
    const lastSeq = before.at(-1)?.seq as number;
    a.socket.terminate();
    await new Promise((resolve) => setTimeout(resolve, 150));
    a = await open({ resume: [{ sessionId, lastSeq }] });
    await finished;
    await a.waitForEvent(sessionId, 'agent_end').catch(() => undefined);
    const after = a.events(sessionId);
    expect(a.frames.some((m) => m.type === 'snapshot')).toBe(false);
    expect(after[0]?.seq).toBe(lastSeq + 1);
    expect([...before, ...after]).toEqual(observer.events(sessionId));
  });

  it('sends a snapshot to a client resuming from a seq it no longer holds', async () => {
    await tests.start({ config: { replayEvents: 4 } });
    const a = await open();
    const sessionId = await sharedSession(a);
    const done = a.waitForEvent(sessionId, 'agent_end');
    await a.ok({ type: 'prompt', sessionId, text: `${words(40)}\n/slow 1` });
    await done;
    const first = a.events(sessionId)[0] as EventFrame;
    const b = await open({ resume: [{ sessionId, lastSeq: first.seq }] });
    const snapshot = (await b.seen((m) => m.type === 'snapshot')) as Snapshot;
    expect(snapshot.seq).toBe(a.events(sessionId).at(-1)?.seq);
    // The prompt and tools the session recorded first (pi 1.6), then the exchange.
    expect(snapshot.messages.map((m) => m.message.role)).toEqual(['system', 'user', 'assistant']);
    const tree = snapshot.tree;
    if (typeof tree === 'string') throw new Error(tree);
    const messages = tree.filter((node) => node.type === 'message');
    expect(messages.map((node) => node.role)).toEqual(['system', 'user', 'assistant']);
    expect(messages.map((node) => node.id)).toEqual(snapshot.messages.map((m) => m.entryId));
    // Each model says which thinking levels it takes and whether it sees images.
    const byId = new Map(snapshot.models.map((model) => [model.id, model]));
    expect(byId.get('arbor-demo')).toMatchObject({ thinkingLevels: ['off'], images: true });
    expect(byId.get('gpt-5-mini')?.thinkingLevels).toEqual(['minimal', 'low', 'medium', 'high']);
    const resumedFromOldStream = await open({ resume: [{ sessionId, lastSeq: 5 }] });
    await resumedFromOldStream.seen((m) => m.type === 'snapshot');
  });

  it('shows a subscriber joining mid-stream the partial message in its snapshot', async () => {
    await tests.start();
    const a = await open();
    const sessionId = await sharedSession(a);
    const started = a.next(
      (m) =>
        m.type === 'event' &&
        m.event.type === 'message_update' &&
        a.events(sessionId).filter((f) => f.event.type === 'message_update').length >= 4,
    );
    const done = a.waitForEvent(sessionId, 'agent_end');
    await a.ok({ type: 'prompt', sessionId, text: `${words(20)}\n/slow 30` });
    await started;
    const b = await open();
    const snapshotPromise = b.next((m) => m.type === 'snapshot');
    await b.ok({ type: 'subscribe', sessionId });
    const snapshot = (await snapshotPromise) as Snapshot;
    expect(snapshot.state.isStreaming).toBe(true);
    expect(snapshot.streamingMessage?.role).toBe('assistant');
    await done;
    await b.waitForEvent(sessionId, 'agent_end').catch(() => undefined);
    const fromA = a.events(sessionId).filter((f) => f.seq > snapshot.seq);
    expect(b.events(sessionId)).toEqual(fromA);
    // The partial message holds exactly the deltas up to the snapshot's seq: with the deltas
    // after it, it makes the message that ended.
    const textOf = (message: AgentMessage | null | undefined) =>
      message?.role === 'assistant'
        ? message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
        : '';
    let text = textOf(snapshot.streamingMessage);
    let ended = '';
    for (const frame of b.events(sessionId)) {
      const event = frame.event;
      if (event.type === 'message_update' && event.assistantMessageEvent.type === 'text_delta')
        text += event.assistantMessageEvent.delta;
      if (event.type === 'message_end' && event.message.role === 'assistant') {
        ended = textOf(event.message);
        break;
      }
    }
    expect(textOf(snapshot.streamingMessage).length).toBeGreaterThan(0);
    expect(ended.length).toBeGreaterThan(0);
    expect(text).toBe(ended);
  });
});

describe('hostile input', () => {
  it('answers 200 malformed or hostile frames with an error each while a run completes', async () => {
    await tests.start();
    const client = await open();
    const sessionId = await sharedSession(client);
    const done = client.waitForEvent(sessionId, 'agent_end', 60_000);
    await client.ok({ type: 'prompt', sessionId, text: `${words(30)}\n/slow 10` });

    const errorsBefore = client.frames.length;
    const hostile: (string | Buffer)[] = [];
    const pad = (i: number) => `h${i}`;
    for (let i = 0; hostile.length < 199; i++) {
      const id = pad(i);
      const kind = i % 20;
      const frames: (string | Buffer)[] = [
        'not json at all',
        '',
        '[1,2,3]',
        'null',
        '42',
        JSON.stringify({ type: 123, id }),
        JSON.stringify({ type: 'rm -rf /', id }),
        JSON.stringify({ type: 'prompt', id, sessionId, text: 7 }),
        JSON.stringify({ type: 'prompt', id, sessionId: '../../etc/passwd', text: 'x' }),
        JSON.stringify({ type: 'subscribe', id, sessionId: '/etc/passwd' }),
        JSON.stringify({
          type: 'subscribe',
          id,
          sessionId: '00000000-0000-7000-8000-000000000000',
        }),
        JSON.stringify({ type: 'get_tree', id, sessionId: 'not-subscribed-id' }),
        `{"type":"get_state","id":"${id}","sessionId":"__proto__","__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}`,
        JSON.stringify({ type: 'get_entries', id, sessionId, ids: Array(501).fill('a') }),
        JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION }),
        JSON.stringify({ type: 'navigate_tree', id, sessionId, targetId: 'nope' }),
        Buffer.from([0, 1, 2, 3]),
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
        JSON.stringify({
          type: 'set_model',
          id,
          sessionId,
          provider: 'arbor',
          modelId: 'no-such-model',
        }),
        JSON.stringify({ type: 'prompt', sessionId, text: 'no id' }),
      ];
      hostile.push(frames[kind] as string | Buffer);
    }
    for (const frame of hostile) client.sendRaw(frame);
    client.sendRaw(
      JSON.stringify({ type: 'prompt', id: 'huge', sessionId, text: 'x'.repeat(17 * 1024 * 1024) }),
    );

    const isError = (m: ServerMessage) =>
      m.type === 'error' || (m.type === 'response' && !m.ok && m.id !== undefined);
    const deadline = Date.now() + 30_000;
    while (
      client.frames.slice(errorsBefore).filter(isError).length < 200 &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const errors = client.frames.slice(errorsBefore).filter(isError);
    expect(errors).toHaveLength(200);
    // The oversized frame is answered on its request, which would otherwise wait for ever.
    expect(
      errors.filter(
        (m) =>
          m.type === 'response' && m.id === 'huge' && !m.ok && m.error.code === 'payload_too_large',
      ),
    ).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    await done;
    expect(assistantText(client.events(sessionId))).toBe(`You said: "${words(30)}"`);
    expect(await client.ok({ type: 'get_state', sessionId })).toMatchObject({ isStreaming: false });
  });
});

describe('slow clients', () => {
  it('drops a client that stops reading to a resync with a fresh snapshot', async () => {
    await tests.start({
      config: { clientBufferLimitBytes: 256 * 1024 },
      build: { demoModel: { contextWindow: 100_000_000 } },
    });
    const fast = await open();
    const slow = await open();
    const sessionId = await sharedSession(fast, slow);
    (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const line = 'y'.repeat(200_000);
    for (let i = 0; i < 6; i++) {
      const done = fast.waitForEvent(sessionId, 'agent_end', 60_000);
      await fast.ok({ type: 'prompt', sessionId, text: `${line}${i}` });
      await done;
    }
    const resync = slow.next((m) => m.type === 'resync_required', 30_000);
    const snapshot = slow.next(
      (m) =>
        m.type === 'snapshot' && m.seq > 0 && slow.frames.some((f) => f.type === 'resync_required'),
      30_000,
    );
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await resync).toMatchObject({ sessionId, reason: 'slow_consumer' });
    const fresh = (await snapshot) as Snapshot;
    expect(fresh.seq).toBe(fast.events(sessionId).at(-1)?.seq);
    // Six exchanges after the prompt and tools recorded before the first (pi 1.6).
    expect(fresh.messages).toHaveLength(13);
    const beforeResync = slow.frames.slice(
      0,
      slow.frames.findIndex((m) => m.type === 'resync_required'),
    );
    const seqs = beforeResync.filter((m): m is EventFrame => m.type === 'event').map((m) => m.seq);
    expect(seqs).toEqual(
      fast
        .events(sessionId)
        .slice(0, seqs.length)
        .map((m) => m.seq),
    );
    expect(seqs.length).toBeLessThan(fast.events(sessionId).length);
  });
});

describe('shutdown', () => {
  it('aborts and saves a running turn, then closes sockets with 1001', async () => {
    const server = await tests.start();
    const client = await open();
    const sessionId = await sharedSession(client);
    const streaming = client.next((m) => m.type === 'event' && m.event.type === 'message_update');
    await client.ok({ type: 'prompt', sessionId, text: `${words(200)}\n/slow 50` });
    await streaming;
    const file = server.app.arbor.locator.locate(sessionId)?.file as string;
    const closed = client.closed();
    await server.app.close();
    expect(await closed).toBe(1001);
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const messages = lines.filter((l) => l.type === 'message').map((l) => l.message);
    expect(messages[0]).toMatchObject({ role: 'system' });
    expect(messages[1]).toMatchObject({ role: 'user' });
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
    // Nothing happened to the session: the client is told to come back, not that it is gone.
    expect(client.frames.some((m) => m.type === 'session_closed')).toBe(false);
  });

  it('lets a client resume its session at the same leaf on the server started after it', async () => {
    const server = await tests.start();
    const client = await open();
    const sessionId = await sharedSession(client);
    const done = client.waitForEvent(sessionId, 'agent_end');
    await client.ok({ type: 'prompt', sessionId, text: 'before the restart' });
    await done;
    const { leafId } = await client.ok<{ leafId: string }>({ type: 'get_state', sessionId });
    const lastSeq = client.events(sessionId).at(-1)?.seq as number;
    const closed = client.closed();
    await server.app.close();
    expect(await closed).toBe(1001);

    // A second server on the first one's data folder (a restart).
    const again = await buildApp({ config: server.app.arbor.config, webRoot: null });
    tests.alsoClose(() => again.close());
    await again.listen({ host: '127.0.0.1', port: 0 });
    const address = again.server.address() as AddressInfo;
    const back = await open({
      url: `ws://127.0.0.1:${address.port}/api/ws`,
      resume: [{ sessionId, lastSeq }],
    });
    const snapshot = (await back.seen((m) => m.type === 'snapshot')) as Snapshot;
    expect(snapshot).toMatchObject({ sessionId, leafId });
    await back.ok({ type: 'prompt', sessionId, text: 'after the restart' });
    await back.waitForEvent(sessionId, 'agent_end');
  });
});

describe('tree commands', () => {
  it('moves the leaf with a branch summary that every subscriber sees', async () => {
    await tests.start();
    const a = await open();
    const b = await open();
    const sessionId = await sharedSession(a, b);
    for (const text of ['first question', 'second question']) {
      const done = b.waitForEvent(sessionId, 'agent_end');
      await a.ok({ type: 'prompt', sessionId, text });
      await done;
    }
    const answer = await a.ok<{ tree: TreeNode[] }>({ type: 'get_tree', sessionId });
    const tree = answer.tree;
    if (typeof tree === 'string') throw new Error(tree);
    const second = tree.filter((node) => node.role === 'user')[1] as { id: string };
    const result = await a.ok({
      type: 'navigate_tree',
      sessionId,
      targetId: second.id,
      summarize: true,
      label: 'retry here',
    });
    expect(result).toEqual({ cancelled: false, editorText: 'second question' });
    const lastSeq = a.events(sessionId).at(-1)?.seq;
    await b.seen((m) => m.type === 'event' && m.seq === lastSeq);
    const appended = b
      .events(sessionId)
      .map((frame) => frame.event)
      .filter((event) => event.type === 'entry_appended')
      .map((event) => (event.type === 'entry_appended' ? event.node.type : ''));
    expect(appended).toContain('branch_summary');
    expect(b.events(sessionId)).toEqual(a.events(sessionId));
    const state = await a.ok<{ leafId: string }>({ type: 'get_state', sessionId });
    const { entries } = await a.ok<{ entries: { type: string }[] }>({
      type: 'get_entries',
      sessionId,
      ids: [state.leafId],
    });
    expect(entries[0]?.type).toMatch(/branch_summary|label/);
  });
});

describe('session lifetime', () => {
  it('closes a session nobody watches once it has been idle, releasing its file', async () => {
    const server = await tests.start();
    const client = await open();
    const sessionId = await sharedSession(client);
    const hub = server.app.arbor.hub;
    const file = server.app.arbor.locator.locate(sessionId)?.file as string;
    await hub.closeIdle(performance.now() + server.app.arbor.config.idleSessionMs + 1);
    expect(hub.get(sessionId)).toBeDefined();
    await client.ok({ type: 'unsubscribe', sessionId });
    await hub.closeIdle(performance.now() + server.app.arbor.config.idleSessionMs + 1);
    expect(hub.get(sessionId)).toBeUndefined();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    const snapshot = client.next((m) => m.type === 'snapshot');
    await client.ok({ type: 'subscribe', sessionId });
    expect(((await snapshot) as Snapshot).sessionId).toBe(sessionId);
  });

  it('opens a session again while its idle close is still releasing the file', async () => {
    const server = await tests.start();
    const client = await open();
    const sessionId = await sharedSession(client);
    await client.ok({ type: 'unsubscribe', sessionId });
    const hub = server.app.arbor.hub;
    const closing = hub.closeIdle(performance.now() + server.app.arbor.config.idleSessionMs + 1);
    const reopened = hub.open(sessionId);
    await closing;
    expect((await reopened).sessionId).toBe(sessionId);
    expect(hub.get(sessionId)).toBe(await reopened);
  });

  it('tells subscribers when their session is deleted', async () => {
    const server = await tests.start();
    const client = await open();
    const sessionId = await sharedSession(client);
    const closed = client.next((m) => m.type === 'session_closed');
    const res = await fetch(`${server.url}/api/sessions/${sessionId}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await closed).toEqual({ type: 'session_closed', sessionId, reason: 'deleted' });
    const again = await client.request({ type: 'get_state', sessionId });
    expect(again).toMatchObject({ ok: false, error: { code: 'not_subscribed' } });
  });
});
