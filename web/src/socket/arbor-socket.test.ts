import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { AddressInfo } from 'node:net';
import { ArborSocket, CommandError, type SessionFrame, type SocketStatus } from './arbor-socket';
import { snapshot } from '../test-support/snapshot-builder';
import { randomTree } from '../test-support/tree-builder';
import { PROTOCOL_VERSION } from '../../../shared/protocol';

/*
 * The server side here is a scripted peer on a real port: the socket module is tested over a real
 * WebSocket connection, against frames as the protocol defines them.
 */

interface Peer {
  url: string;
  connections: WebSocket[];
  received: Record<string, unknown>[][];
  close(): Promise<void>;
  next(
    connection: number,
    predicate?: (frame: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>>;
}

const welcome = {
  type: 'welcome',
  protocolVersion: PROTOCOL_VERSION,
  user: { name: 'local', role: 'admin' },
  server: { name: 'arbor', version: '0.1.0', authRequired: false, maxFrameBytes: 1000 },
};

async function startPeer(
  onFrame: (ws: WebSocket, frame: Record<string, unknown>) => void,
  listenPort = 0,
): Promise<Peer> {
  const server = new WebSocketServer({ port: listenPort, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const connections: WebSocket[] = [];
  const received: Record<string, unknown>[][] = [];
  const waiters: (() => void)[] = [];
  server.on('connection', (ws) => {
    const index = connections.length;
    connections.push(ws);
    received.push([]);
    ws.on('message', (data: RawData) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      received[index]!.push(frame);
      if (frame.type === 'hello') ws.send(JSON.stringify(welcome));
      onFrame(ws, frame);
      waiters.splice(0).forEach((wake) => wake());
    });
    waiters.splice(0).forEach((wake) => wake());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/api/ws`,
    connections,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const ws of server.clients) ws.terminate();
        server.close(() => resolve());
      }),
    async next(connection, predicate = () => true) {
      for (;;) {
        const found = received[connection]?.find(predicate);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

let peer: Peer | null = null;
let socket: ArborSocket | null = null;
afterEach(async () => {
  socket?.stop();
  await peer?.close();
  peer = null;
  socket = null;
});

function client(url: string): ArborSocket {
  socket = new ArborSocket({
    url,
    WebSocketImpl: WebSocket as never,
    baseDelayMs: 20,
    maxDelayMs: 50,
  });
  return socket;
}

function waitFor<T>(check: () => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const tick = (): void => {
      const value = check();
      if (value !== undefined) resolve(value);
      else setTimeout(tick, 5);
    };
    tick();
  });
}

describe('ArborSocket', () => {
  it('says hello with the protocol version and correlates responses by request id', async () => {
    peer = await startPeer((ws, frame) => {
      if (frame.type === 'ping') {
        // Answer out of order: the second request first.
        setTimeout(
          () =>
            ws.send(
              JSON.stringify({
                type: 'response',
                id: frame.id,
                ok: true,
                data: { time: Number(String(frame.id).slice(1)) },
              }),
            ),
          frame.id === 'r1' ? 30 : 0,
        );
      }
    });
    const s = client(peer.url);
    s.start();
    const [a, b] = await Promise.all([
      s.request<'ping'>({ type: 'ping' }),
      s.request<'ping'>({ type: 'ping' }),
    ]);
    expect(a.time).toBe(1);
    expect(b.time).toBe(2);
    expect(peer.received[0]![0]).toEqual({ type: 'hello', protocolVersion: PROTOCOL_VERSION });
    expect(s.welcome?.user.name).toBe('local');
  });

  it('rejects a failed command with the server error code', async () => {
    peer = await startPeer((ws, frame) => {
      if (frame.type === 'abort')
        ws.send(
          JSON.stringify({
            type: 'response',
            id: frame.id,
            ok: false,
            error: { code: 'forbidden', message: 'viewers cannot abort' },
          }),
        );
    });
    const s = client(peer.url);
    s.start();
    const error = await s
      .request<'abort'>({ type: 'abort', sessionId: 's1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    // It names its session, so the page says it there and not in one opened since.
    expect(error).toMatchObject({
      code: 'forbidden',
      message: 'viewers cannot abort',
      sessionId: 's1',
    });
  });

  it('reports frames that fail the schema and keeps working', async () => {
    peer = await startPeer((ws, frame) => {
      if (frame.type === 'ping') {
        ws.send('not json');
        ws.send(JSON.stringify({ type: 'event', sessionId: 's1', seq: 'x' }));
        ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { time: 5 } }));
      }
    });
    const s = client(peer.url);
    const problems: string[] = [];
    s.onProblem((text) => problems.push(text));
    s.start();
    expect((await s.request<'ping'>({ type: 'ping' })).time).toBe(5);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/not JSON/);
  });

  it('reports a malformed event once, applies nothing after it and reloads its session', async () => {
    let subscribes = 0;
    const event = (seq: number, body: Record<string, unknown>) =>
      JSON.stringify({ type: 'event', sessionId: 'sess-1', seq, event: body });
    peer = await startPeer((ws, frame) => {
      if (frame.type !== 'subscribe') return;
      subscribes++;
      const seq = subscribes === 1 ? 3 : 7;
      ws.send(JSON.stringify({ ...snapshot([], null), sessionId: 'sess-1', seq }));
      ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { seq } }));
      if (subscribes > 1) return;
      // A message_end whose message has no role, then the same again, then a good event.
      const broken = { type: 'message_end', message: { content: 'hi' }, entryId: 'e1' };
      ws.send(event(4, broken));
      ws.send(event(5, broken));
      ws.send(event(6, { type: 'agent_start' }));
    });
    const s = client(peer.url);
    const frames: SessionFrame[] = [];
    const problems: string[] = [];
    s.onFrame((frame) => frames.push(frame));
    s.onProblem((text) => problems.push(text));
    s.start();
    await s.subscribe('sess-1');
    await waitFor(() => (frames.length >= 2 ? true : undefined));
    expect(frames.map((f) => [f.type, 'seq' in f ? f.seq : null])).toEqual([
      ['snapshot', 3],
      ['snapshot', 7],
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^The server sent a "message_end" event the page cannot read \(event\.message\.role: .+\)\. The session is reloaded from the server\.$/,
    );
    expect(subscribes).toBe(2);
  });

  it("rejects a command whose answer does not match its result's schema, naming the field", async () => {
    peer = await startPeer((ws, frame) => {
      if (frame.type === 'ping')
        ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { time: 'x' } }));
    });
    const s = client(peer.url);
    s.start();
    const error = await s.request<'ping'>({ type: 'ping' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect(error).toMatchObject({ code: 'bad_frame' });
    expect((error as Error).message).toMatch(/answer to "ping", time: .*expected number/);
  });

  it('reconnects after a drop and resumes each session from the last seq it delivered', async () => {
    peer = await startPeer((ws, frame) => {
      if (frame.type === 'subscribe') {
        ws.send(JSON.stringify({ ...snapshot([], null), sessionId: 'sess-1', seq: 3 }));
        ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { seq: 3 } }));
        ws.send(
          JSON.stringify({
            type: 'event',
            sessionId: 'sess-1',
            seq: 4,
            event: { type: 'agent_start' },
          }),
        );
        ws.send(
          JSON.stringify({
            type: 'event',
            sessionId: 'sess-1',
            seq: 4,
            event: { type: 'agent_start' },
          }),
        );
      }
    });
    const s = client(peer.url);
    const frames: SessionFrame[] = [];
    const statuses: SocketStatus[] = [];
    s.onFrame((frame) => frames.push(frame));
    s.onStatus((status) => statuses.push(status));
    s.start();
    await s.subscribe('sess-1');
    await waitFor(() => (frames.length >= 2 ? true : undefined));
    expect(frames.map((f) => f.type)).toEqual(['snapshot', 'event']);

    peer.connections[0]!.terminate();
    const hello = await peer.next(1, (frame) => frame.type === 'hello');
    expect(hello.resume).toEqual([{ sessionId: 'sess-1', lastSeq: 4 }]);
    await waitFor(() => (s.getStatus() === 'open' ? true : undefined));
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open']);
  });

  it('after the server stops (1001), stays reconnecting until a server is back, then resumes the session', async () => {
    const subscribeAnswer = (ws: WebSocket, frame: Record<string, unknown>): void => {
      if (frame.type !== 'subscribe') return;
      ws.send(JSON.stringify({ ...snapshot([], null), sessionId: 'sess-1', seq: 7 }));
      ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { seq: 7 } }));
    };
    peer = await startPeer(subscribeAnswer);
    const port = Number(new URL(peer.url).port);
    const s = client(peer.url);
    const statuses: SocketStatus[] = [];
    const frames: SessionFrame[] = [];
    s.onStatus((status) => statuses.push(status));
    s.onFrame((frame) => frames.push(frame));
    s.start();
    await s.subscribe('sess-1');

    // What the server does on SIGTERM: close every socket with 1001, then stop listening.
    peer.connections[0]!.close(1001, 'server shutting down');
    await peer.close();
    await waitFor(() => (s.getStatus() === 'reconnecting' ? true : undefined));
    // Several attempts fail against the closed port (backoff 20–50 ms) without a change of status.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(s.getStatus()).toBe('reconnecting');
    // A command issued meanwhile was never sent: it waits for the server, across failed attempts.
    const ping = s.request<'ping'>({ type: 'ping' });

    peer = await startPeer((ws, frame) => {
      // The server resubscribes what the hello names and sends its snapshot.
      if (frame.type === 'hello' && frame.resume)
        ws.send(JSON.stringify({ ...snapshot([], null), sessionId: 'sess-1', seq: 9 }));
      if (frame.type === 'ping')
        ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { time: 1 } }));
    }, port);
    const hello = await peer.next(0, (frame) => frame.type === 'hello');
    expect(hello.resume).toEqual([{ sessionId: 'sess-1', lastSeq: 7 }]);
    await waitFor(() => (s.getStatus() === 'open' ? true : undefined));
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open']);
    expect((await ping).time).toBe(1);
    await waitFor(() => (frames.length === 2 ? true : undefined));
    expect(frames.map((f) => f.type)).toEqual(['snapshot', 'snapshot']);
  });

  it('hands listeners a snapshot with its tree, and reports one whose tree is broken', async () => {
    const tree = randomTree(4, 120);
    peer = await startPeer((ws, frame) => {
      if (frame.type !== 'subscribe') return;
      const frame1 = snapshot(tree, null);
      const broken = { ...frame1, seq: 1, tree: [...frame1.tree, { id: 'x', preview: 3 }] };
      ws.send(JSON.stringify(broken));
      ws.send(JSON.stringify({ ...snapshot(tree, null), seq: 2 }));
      ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { seq: 2 } }));
    });
    const s = client(peer.url);
    const frames: SessionFrame[] = [];
    const problems: string[] = [];
    s.onFrame((frame) => frames.push(frame));
    s.onProblem((text) => problems.push(text));
    s.start();
    await s.subscribe('sess-1');
    await waitFor(() => (frames.length >= 1 ? true : undefined));
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ type: 'snapshot', seq: 2, tree });
    expect(problems).toEqual([
      `The server sent a snapshot the page cannot read: tree.${tree.length}.parentId: Invalid input: expected string, received undefined`,
    ]);
  });

  it('rejects commands in flight when the connection drops, and sends later ones after reconnecting', async () => {
    peer = await startPeer((ws, frame) => {
      if (frame.type === 'get_state') ws.terminate();
      if (frame.type === 'ping')
        ws.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, data: { time: 9 } }));
    });
    const s = client(peer.url);
    s.start();
    const lost = await s
      .request<'get_state'>({ type: 'get_state', sessionId: 's1' })
      .catch((e: unknown) => e);
    expect(lost).toMatchObject({ code: 'disconnected' });
    expect((await s.request<'ping'>({ type: 'ping' })).time).toBe(9);
  });

  it('refuses a command over the frame limit the server announced, without sending it', async () => {
    peer = await startPeer(() => undefined);
    const s = client(peer.url);
    s.start();
    await waitFor(() => (s.getStatus() === 'open' ? true : undefined));
    // The welcome says 1000 bytes; 600 "é" are 1200 bytes in UTF-8, though 600 characters.
    const error = await s
      .request<'prompt'>({ type: 'prompt', sessionId: 's1', text: 'é'.repeat(600) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect(error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringMatching(/^This is 0\.0 MB to send at once; the server takes at most/),
    });
    expect(peer.received[0]!.map((frame) => frame.type)).toEqual(['hello']);
  });

  it('stops reconnecting when the server refuses the login', async () => {
    peer = await startPeer(() => undefined);
    const s = client(peer.url);
    s.start();
    await peer.next(0, (frame) => frame.type === 'hello');
    peer.connections[0]!.close(4001, 'login required');
    await waitFor(() => (s.getStatus() === 'unauthorized' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(peer.connections).toHaveLength(1);
  });
});
