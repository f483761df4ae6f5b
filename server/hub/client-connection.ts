import type { RawData, WebSocket } from 'ws';
import {
  CloseCode,
  frameTooLargeMessage,
  PROTOCOL_VERSION,
  type Command,
  type ErrorBody,
  type Hello,
  type ServerMessage,
  type Snapshot,
  type UserSummary,
} from '../../shared/protocol.js';
import { ArborError, isExpectedError, toErrorBody } from '../errors/error-catalog.js';
import { mayAccess } from '../auth/authorisation.js';
import type { SessionOwners } from '../auth/session-owners.js';
import { runCommand, type CommandContext } from './command-router.js';
import type { LiveSession, SessionClosedReason, Subscriber } from './live-session.js';
import { parseClientFrame, requestIdNearEnds } from './parse-client-frame.js';
import { frameBodyBudget } from './path-messages.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SessionHub } from './session-hub.js';

/*
 * One WebSocket client: the hello handshake, frame parsing, its subscriptions, and backpressure.
 * Everything goes out through `ws`'s `send`, which frames it and compresses big answers and
 * snapshots, never events (ws-route.ts). Once `ws` holds more than `bufferLimitBytes` unsent
 * (`bufferedAmount`: what waits in the socket and what queues behind a compression), further
 * events are dropped and the client is marked behind. When the socket drains it gets
 * `resync_required` and a fresh snapshot per session; a client that stays behind for
 * `maxBehindMs`, or whose buffer passes four times the limit, is closed with 4008.
 */

export interface ConnectionOptions {
  hub: SessionHub;
  owners: SessionOwners;
  promptLimiter: RateLimiter;
  /** The connection's user as of now (undefined once removed: the connection is closed). */
  currentUser: () => UserSummary | undefined;
  authRequired: boolean;
  serverVersion: string;
  maxFrameBytes: number;
  bufferLimitBytes: number;
  helloTimeoutMs?: number;
  maxBehindMs?: number;
  log: {
    error(obj: unknown, msg: string): void;
    warn(obj: unknown, msg: string): void;
    debug(obj: unknown, msg: string): void;
  };
}

const BAD_FRAME_BUDGET = 500;
const BAD_FRAME_WINDOW_MS = 10_000;

export class ClientConnection implements Subscriber {
  private helloDone = false;
  private closed = false;
  private readonly subscriptions = new Map<string, Promise<LiveSession>>();
  /** The subscriptions whose session is open and which receive events. */
  private readonly resolved = new Map<string, LiveSession>();
  private behindSince: number | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private readonly helloTimer: NodeJS.Timeout;
  private badFrames: number[] = [];

  constructor(
    private readonly socket: WebSocket,
    private readonly opts: ConnectionOptions,
  ) {
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    socket.on('close', () => this.onClose());
    socket.on('error', (error) => opts.log.debug({ err: error }, 'websocket error'));
    this.helloTimer = setTimeout(() => {
      if (!this.helloDone) this.close(CloseCode.helloTimeout, 'hello expected');
    }, opts.helloTimeoutMs ?? 10_000);
  }

  /** Ends the connection with a code from the protocol's list. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.onClose();
    try {
      this.socket.close(code, reason);
    } catch {
      this.socket.terminate();
    }
  }

  deliver(_sessionId: string, _seq: number, json: Buffer): void {
    if (this.closed || this.behindSince !== undefined) return;
    if (this.socket.readyState !== this.socket.OPEN) return;
    // Event frames are never compressed, whatever their size: while `ws` compresses a frame, the
    // frames after it wait in its queue and count in `bufferedAmount`, and a big event deflated
    // ahead of a stream's deltas would make a client that reads fast look behind (decision 082).
    this.socket.send(json, { binary: false, compress: false });
    this.checkBuffer();
  }

  private send(message: ServerMessage): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(JSON.stringify(message));
    this.checkBuffer();
  }

  private sendError(error: ErrorBody, id?: string): void {
    if (id !== undefined) this.send({ type: 'response', id, ok: false, error });
    else this.send({ type: 'error', ...error });
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    const size = Array.isArray(data)
      ? data.reduce((sum, part) => sum + part.length, 0)
      : data instanceof ArrayBuffer
        ? data.byteLength
        : data.length;
    if (isBinary) return this.reject({ code: 'bad_frame', message: 'Binary frames are not used.' });
    if (size > this.opts.maxFrameBytes) {
      return this.reject(
        {
          code: 'payload_too_large',
          message: frameTooLargeMessage(size, this.opts.maxFrameBytes),
        },
        requestIdNearEnds(data),
      );
    }
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.from(data as Buffer).toString('utf8');
    const parsed = parseClientFrame(text);
    if (!parsed.ok) return this.reject(parsed.error, parsed.id);
    const message = parsed.message;
    if (message.type === 'hello') return this.onHello(message);
    if (!this.helloDone) {
      return this.reject(
        { code: 'hello_required', message: 'Send "hello" with the protocol version first.' },
        message.id,
      );
    }
    void this.onCommand(message);
  }

  private reject(error: ErrorBody, id?: string): void {
    this.sendError(error, id);
    const now = performance.now();
    this.badFrames = this.badFrames.filter((at) => now - at < BAD_FRAME_WINDOW_MS);
    this.badFrames.push(now);
    if (this.badFrames.length > BAD_FRAME_BUDGET) {
      this.close(CloseCode.tooManyBadFrames, 'too many bad frames');
    }
  }

  private onHello(hello: Hello): void {
    if (this.helloDone) {
      return this.reject({ code: 'invalid_argument', message: '"hello" was already received.' });
    }
    if (hello.protocolVersion !== PROTOCOL_VERSION) {
      this.sendError({
        code: 'protocol_version',
        message: `This server speaks protocol ${PROTOCOL_VERSION}; the client speaks ${hello.protocolVersion}. Reload the page.`,
      });
      this.close(CloseCode.protocolVersion, 'protocol version');
      return;
    }
    const user = this.user();
    if (!user) return;
    this.helloDone = true;
    clearTimeout(this.helloTimer);
    this.send({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      user,
      server: {
        name: 'arbor',
        version: this.opts.serverVersion,
        authRequired: this.opts.authRequired,
        maxFrameBytes: this.opts.maxFrameBytes,
      },
    });
    for (const point of hello.resume ?? []) {
      this.subscribe(point.sessionId, point.lastSeq).catch((error: unknown) => {
        const body = toErrorBody(error);
        if (!isExpectedError(error)) this.opts.log.error({ err: error }, 'resume failed');
        this.send({ type: 'error', ...body, message: `${point.sessionId}: ${body.message}` });
      });
    }
  }

  private async onCommand(command: Command): Promise<void> {
    const user = this.user();
    if (!user) return;
    try {
      const data = await runCommand(this.context(user), command);
      this.send({ type: 'response', id: command.id, ok: true, data });
    } catch (error) {
      if (!isExpectedError(error)) {
        this.opts.log.error({ err: error, command: command.type }, 'command failed');
      }
      this.sendError(toErrorBody(error), command.id);
    }
  }

  /** The current user, or undefined after closing a connection whose user was removed. */
  private user(): UserSummary | undefined {
    const user = this.opts.currentUser();
    if (!user) this.close(CloseCode.unauthorized, 'user removed');
    return user;
  }

  private context(user: UserSummary): CommandContext {
    return {
      user,
      hub: this.opts.hub,
      owners: this.opts.owners,
      promptLimiter: this.opts.promptLimiter,
      subscribe: (sessionId, lastSeq) => this.subscribe(sessionId, lastSeq),
      unsubscribe: (sessionId) => this.unsubscribe(sessionId),
      subscribed: async (sessionId) => {
        const pending = this.subscriptions.get(sessionId);
        if (!pending) {
          throw new ArborError('not_subscribed', `Subscribe to session ${sessionId} first.`);
        }
        return pending;
      },
      subscribedIds: () => [...this.subscriptions.keys()],
      frameBodyBytes: frameBodyBudget(this.opts.bufferLimitBytes),
      log: this.opts.log,
    };
  }

  private async subscribe(sessionId: string, lastSeq?: number): Promise<number> {
    this.unsubscribe(sessionId);
    const pending = this.opts.hub.open(sessionId).then((live) => {
      if (this.closed || this.subscriptions.get(sessionId) !== pending) return live;
      const missed = live.subscribe(this, lastSeq);
      this.resolved.set(sessionId, live);
      if (missed) {
        for (const frame of missed) this.deliver(sessionId, 0, frame);
      } else {
        const snapshot = this.snapshotOf(live);
        if (snapshot) this.send(snapshot);
      }
      return live;
    });
    this.subscriptions.set(sessionId, pending);
    try {
      return (await pending).currentSeq;
    } catch (error) {
      if (this.subscriptions.get(sessionId) === pending) this.subscriptions.delete(sessionId);
      throw error;
    }
  }

  private unsubscribe(sessionId: string): void {
    // A subscription still opening sees it was replaced and never subscribes.
    if (!this.subscriptions.delete(sessionId)) return;
    this.resolved.get(sessionId)?.unsubscribe(this);
    this.resolved.delete(sessionId);
  }

  private snapshotOf(live: LiveSession): Snapshot | undefined {
    const user = this.opts.currentUser();
    if (!user) return undefined;
    const owner = this.opts.owners.ownerOf(live.sessionId);
    return live.snapshot(
      this.opts.hub.models(),
      { canWrite: mayAccess(user, owner, 'write'), owner },
      frameBodyBudget(this.opts.bufferLimitBytes),
    );
  }

  /**
   * Sends a fresh snapshot of every session this client follows, for a change that reaches all
   * of them (the models in use). A client that is behind gets them when it has caught up.
   */
  resendSnapshots(): void {
    if (this.closed || this.behindSince !== undefined) return;
    for (const live of this.resolved.values()) {
      const snapshot = this.snapshotOf(live);
      if (snapshot) this.send(snapshot);
    }
  }

  /** Tells the client a session is gone for it and unsubscribes. */
  sessionClosed(sessionId: string, reason: SessionClosedReason): void {
    if (!this.subscriptions.has(sessionId)) return;
    this.unsubscribe(sessionId);
    this.send({ type: 'session_closed', sessionId, reason });
  }

  private checkBuffer(): void {
    const buffered = this.socket.bufferedAmount;
    if (buffered > 4 * this.opts.bufferLimitBytes) {
      this.opts.log.warn({ buffered }, 'client too slow; closing');
      this.close(CloseCode.tooSlow, 'too slow');
      return;
    }
    if (buffered <= this.opts.bufferLimitBytes || this.behindSince !== undefined) return;
    this.behindSince = performance.now();
    this.drainTimer = setInterval(() => this.checkDrained(), 25);
  }

  /**
   * Once the socket has drained, resynchronises every subscription. Snapshots are taken while the
   * client still counts as behind (so events they already include are not sent as well), then sent.
   */
  private checkDrained(): void {
    if (this.closed || this.behindSince === undefined) return;
    if (this.socket.bufferedAmount > this.opts.bufferLimitBytes / 4) {
      if (performance.now() - this.behindSince > (this.opts.maxBehindMs ?? 30_000)) {
        this.close(CloseCode.tooSlow, 'too slow');
      }
      return;
    }
    clearInterval(this.drainTimer);
    this.drainTimer = undefined;
    const snapshots = [...this.resolved.values()].map((live) => this.snapshotOf(live));
    this.behindSince = undefined;
    for (const snapshot of snapshots) {
      if (!snapshot) continue;
      this.send({
        type: 'resync_required',
        sessionId: snapshot.sessionId,
        reason: 'slow_consumer',
      });
      this.send(snapshot);
    }
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.helloTimer);
    if (this.drainTimer) clearInterval(this.drainTimer);
    for (const sessionId of [...this.subscriptions.keys()]) this.unsubscribe(sessionId);
  }
}
