import { WebSocket } from 'ws';
import {
  CommandResultSchemas,
  PROTOCOL_VERSION,
  ServerMessageSchema,
  type ClientMessage,
  type CommandType,
  type EventFrame,
  type ResponseFrame,
  type ServerMessage,
} from '../../../shared/protocol.js';

/*
 * A real WebSocket client for tests. Every frame it receives is parsed with the protocol's schema
 * (so a server frame that breaks the protocol fails the test) and kept in `frames`, in order; every
 * answer to `request` is parsed with its command's result schema.
 */

export class WsTestClient {
  readonly frames: ServerMessage[] = [];
  private waiters: { test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] =
    [];
  private nextId = 1;
  closeCode: number | undefined;
  private closedWaiters: ((code: number) => void)[] = [];
  /** The TCP socket under the WebSocket, for what travels on the wire. */
  private wire: { bytesRead: number } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.once('upgrade', (response) => (this.wire = response.socket));
    socket.on('message', (data) => {
      const message = ServerMessageSchema.parse(JSON.parse(String(data)));
      this.frames.push(message);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(message)) return true;
        waiter.resolve(message);
        return false;
      });
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const resolve of this.closedWaiters) resolve(code);
    });
  }

  /** Connects; rejects with the HTTP status when the upgrade is refused. */
  static connect(
    url: string,
    opts: { origin?: string; cookie?: string } = {},
  ): Promise<WsTestClient> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (opts.cookie) headers.cookie = opts.cookie;
      const socket = new WebSocket(url, {
        headers,
        ...(opts.origin ? { origin: opts.origin } : {}),
      });
      const client = new WsTestClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(new Error(`upgrade refused: ${res.statusCode}`));
      });
      socket.once('error', reject);
    });
  }

  /** Connects and completes the handshake. */
  static async open(
    url: string,
    opts: {
      origin?: string;
      cookie?: string;
      resume?: { sessionId: string; lastSeq: number }[];
    } = {},
  ): Promise<WsTestClient> {
    const client = await WsTestClient.connect(url, opts);
    client.send({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      ...(opts.resume ? { resume: opts.resume } : {}),
    });
    await client.next((m) => m.type === 'welcome');
    return client;
  }

  /** Bytes received on the wire so far (the handshake's included), compressed as they came. */
  get bytesReceived(): number {
    return this.wire?.bytesRead ?? 0;
  }

  send(message: ClientMessage | Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  /** The first frame from now on that passes `test`. */
  next(test: (m: ServerMessage) => boolean, timeoutMs = 10_000): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching frame within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** The first frame received so far that passes `test`, else the next one that does. */
  seen(test: (m: ServerMessage) => boolean, timeoutMs = 10_000): Promise<ServerMessage> {
    const found = this.frames.find(test);
    return found ? Promise.resolve(found) : this.next(test, timeoutMs);
  }

  /**
   * Sends a command with a fresh id and resolves with its response; an ok answer that breaks its
   * command's result schema throws.
   */
  async request(command: Record<string, unknown>): Promise<ResponseFrame> {
    const id = `r${this.nextId++}`;
    const response = this.next((m) => m.type === 'response' && m.id === id, 20_000);
    this.send({ ...command, id });
    const answer = (await response) as ResponseFrame;
    const type = command.type as CommandType;
    if (answer.ok && Object.hasOwn(CommandResultSchemas, type))
      CommandResultSchemas[type].parse(answer.data ?? {});
    return answer;
  }

  /** Like request, but throws unless the response is ok; returns its data. */
  async ok<T = Record<string, unknown>>(command: Record<string, unknown>): Promise<T> {
    const response = await this.request(command);
    if (!response.ok)
      throw new Error(`${String(command.type)} failed: ${JSON.stringify(response.error)}`);
    return response.data as T;
  }

  /** Makes a new session in the workspace and subscribes to it; returns the session's id. */
  async newSession(workspaceId: string): Promise<string> {
    const { sessionId } = await this.ok<{ sessionId: string }>({
      type: 'new_session',
      workspaceId,
    });
    await this.ok({ type: 'subscribe', sessionId });
    return sessionId;
  }

  /** Sends `text` as a prompt in a subscribed session and waits for its run to end. */
  async prompt(sessionId: string, text: string, timeoutMs?: number): Promise<void> {
    const done = this.waitForEvent(sessionId, 'agent_end', timeoutMs);
    try {
      await this.ok({ type: 'prompt', sessionId, text });
    } catch (error) {
      done.catch(() => undefined);
      throw error;
    }
    await done;
  }

  /** Event frames of a session received so far, in order. */
  events(sessionId: string): EventFrame[] {
    return this.frames.filter(
      (m): m is EventFrame => m.type === 'event' && m.sessionId === sessionId,
    );
  }

  /** Resolves when an event of `type` for the session arrives (from now on). */
  waitForEvent(sessionId: string, type: string, timeoutMs = 20_000): Promise<ServerMessage> {
    return this.next(
      (m) => m.type === 'event' && m.sessionId === sessionId && m.event.type === type,
      timeoutMs,
    );
  }

  closed(): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve) => this.closedWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const done = this.closed();
    this.socket.close();
    await done;
  }
}
