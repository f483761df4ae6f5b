import type { z } from 'zod';
import {
  CloseCode,
  CommandResultSchemas,
  frameTooLargeMessage,
  PROTOCOL_VERSION,
  ServerMessageSchema,
  type Command,
  type CommandResults,
  type CommandType,
  type ErrorCode,
  type EventFrame,
  type ResyncRequired,
  type ServerMessage,
  type SessionClosed,
  type SessionSnapshot,
  type Snapshot,
  type Welcome,
} from '../../../shared/protocol';
import { parseSnapshot } from './snapshot-check';

/*
 * The page's one WebSocket: says hello, correlates responses with requests by id, validates every
 * incoming frame with the shared schemas (each event with its own, each command's result with the
 * schema of that command), and after a drop reconnects with backoff and resumes each subscribed
 * session from the last seq it delivered (the server replays what was missed, or sends a fresh
 * snapshot). A frame that does not read is never half-applied: an event is reported once and its
 * session reloaded from a fresh snapshot; an answer rejects its command with what was wrong.
 */

/**
 * `connecting`: the first attempt, before any welcome. `open`: welcomed; commands go out.
 * `reconnecting`: the connection was lost (a network drop, or the server stopping or restarting)
 * and is being made again with backoff; subscriptions resume once it is back. `offline`: stopped.
 * `unauthorized` and `incompatible` are final: the page must log in again or reload.
 */
export type SocketStatus =
  'connecting' | 'open' | 'reconnecting' | 'offline' | 'unauthorized' | 'incompatible';

/** Snapshots reach listeners with their tree decoded. */
export type SessionFrame = SessionSnapshot | EventFrame | ResyncRequired | SessionClosed;

/** A server message as the page handles it: a snapshot's tree decoded. */
type PageMessage = Exclude<ServerMessage, Snapshot> | SessionSnapshot;

export class CommandError extends Error {
  /** The session the refused command was about, if any: its failure is said there, not elsewhere. */
  sessionId?: string;

  constructor(
    readonly code: ErrorCode | 'disconnected',
    message: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

/** A command without its request id; the socket assigns one. */
export type Outgoing<T extends CommandType> = Omit<Extract<Command, { type: T }>, 'id'>;

interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface SocketOptions {
  url: string;
  /** The WebSocket constructor (the browser's by default; tests pass the `ws` package's). */
  WebSocketImpl?: new (url: string) => SocketLike;
  /** Backoff for reconnects: min(maxDelayMs, baseDelayMs * 2^attempt), with jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

interface PendingRequest {
  type: CommandType;
  resolve: (data: unknown) => void;
  reject: (error: Error) => void;
}

/** Where a frame broke the schema, and how, for a person to pass on. */
function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not match the protocol';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the frame';
  return `${where}: ${issue.message}`;
}

/** What a frame of this shape is called in a message. */
function frameName(json: unknown): string {
  const frame = json as { type?: unknown; event?: { type?: unknown } } | null;
  if (frame?.type === 'event' && typeof frame.event?.type === 'string')
    return `a "${frame.event.type}" event`;
  return typeof frame?.type === 'string' ? `a "${frame.type}" frame` : 'a frame';
}

const OPEN = 1;

export class ArborSocket {
  private socket: SocketLike | null = null;
  private status: SocketStatus = 'offline';
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = true;
  private nextId = 1;
  private readonly pending = new Map<string, PendingRequest>();
  /**
   * Commands issued while not connected, waiting for the next welcome; they outlive failed
   * attempts (they were never sent, so nothing of them is lost), unlike commands in flight.
   */
  private readonly outbox: { id: string; frame: string }[] = [];
  /** Session → last seq delivered to listeners (null until its first snapshot). */
  private readonly subscriptions = new Map<string, number | null>();
  private readonly frameListeners = new Set<(frame: SessionFrame) => void>();
  private readonly statusListeners = new Set<(status: SocketStatus) => void>();
  private readonly problemListeners = new Set<(text: string) => void>();
  /** Problems already reported: each is told once, however often the server repeats it. */
  private readonly reported = new Set<string>();
  /** Sessions reloading after an event that did not read: their events wait for the snapshot. */
  private readonly reloading = new Set<string>();
  private welcomeInfo: Welcome | null = null;
  private readonly options: Required<SocketOptions>;

  constructor(options: SocketOptions) {
    this.options = {
      baseDelayMs: 250,
      maxDelayMs: 5000,
      WebSocketImpl: globalThis.WebSocket as unknown as new (url: string) => SocketLike,
      ...options,
    };
  }

  get welcome(): Welcome | null {
    return this.welcomeInfo;
  }

  getStatus(): SocketStatus {
    return this.status;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.socket?.close(1000, 'page closed');
    this.socket = null;
    this.failPending('The connection was closed.', true);
    this.setStatus('offline');
  }

  /** Reconnects at once (after a drop) instead of waiting for the backoff. */
  reconnectNow(): void {
    if (this.stopped || this.socket !== null) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  onFrame(listener: (frame: SessionFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onStatus(listener: (status: SocketStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Frames the server sent that do not match the protocol, and error frames. */
  onProblem(listener: (text: string) => void): () => void {
    this.problemListeners.add(listener);
    return () => this.problemListeners.delete(listener);
  }

  /**
   * Sends a command and resolves with its result, or rejects with a CommandError carrying the
   * server's code. Commands issued while (re)connecting are sent once the server has welcomed us;
   * commands in flight when the connection drops reject with code `disconnected`.
   */
  request<T extends CommandType>(command: Outgoing<T>): Promise<CommandResults[T]> {
    const id = `r${this.nextId++}`;
    const frame = JSON.stringify({ ...command, id });
    const limit = this.welcomeInfo?.server.maxFrameBytes;
    // A frame the server would refuse is refused here, before minutes of upload (a UTF-8 byte
    // is at most 3 per UTF-16 unit, so only frames near the limit are measured).
    if (limit !== undefined && frame.length * 3 > limit) {
      const bytes = new TextEncoder().encode(frame).length;
      if (bytes > limit) {
        const message = frameTooLargeMessage(bytes, limit);
        return Promise.reject(new CommandError('payload_too_large', message));
      }
    }
    const about = (command as { sessionId?: unknown }).sessionId;
    return new Promise<CommandResults[T]>((resolve, reject) => {
      const type = command.type;
      const refuse = (error: Error) => {
        if (error instanceof CommandError && typeof about === 'string') error.sessionId = about;
        reject(error);
      };
      this.pending.set(id, { type, resolve: resolve as (data: unknown) => void, reject: refuse });
      if (this.status === 'open' && this.socket?.readyState === OPEN) this.socket.send(frame);
      else this.outbox.push({ id, frame });
    });
  }

  /** Subscribes to a session (its snapshot arrives as a frame) and resumes it after reconnects. */
  async subscribe(sessionId: string): Promise<void> {
    if (!this.subscriptions.has(sessionId)) this.subscriptions.set(sessionId, null);
    await this.request<'subscribe'>({ type: 'subscribe', sessionId });
  }

  async unsubscribe(sessionId: string): Promise<void> {
    if (!this.subscriptions.delete(sessionId)) return;
    await this.request<'unsubscribe'>({ type: 'unsubscribe', sessionId }).catch(() => undefined);
  }

  /** Asks for a fresh snapshot (after a gap the page noticed). */
  async resync(sessionId: string): Promise<void> {
    await this.request<'subscribe'>({ type: 'subscribe', sessionId });
  }

  private open(): void {
    // Only the very first attempt is "connecting"; every later one belongs to a reconnect.
    if (this.status === 'offline') this.setStatus('connecting');
    let socket: SocketLike;
    try {
      socket = new this.options.WebSocketImpl(this.options.url);
    } catch {
      this.setStatus('reconnecting');
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      const resume: { sessionId: string; lastSeq: number }[] = [];
      for (const [sessionId, lastSeq] of this.subscriptions) {
        if (lastSeq !== null) resume.push({ sessionId, lastSeq });
      }
      socket.send(
        JSON.stringify({
          type: 'hello',
          protocolVersion: PROTOCOL_VERSION,
          ...(resume.length ? { resume } : {}),
        }),
      );
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.receive(event.data);
    };
    socket.onerror = () => {
      // Followed by close, which decides what happens next.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.welcomeInfo = null;
      this.reloading.clear();
      this.failPending('The connection dropped before the server answered.');
      if (event.code === CloseCode.unauthorized) {
        this.stopped = true;
        this.setStatus('unauthorized');
        return;
      }
      if (event.code === CloseCode.protocolVersion) {
        this.stopped = true;
        this.setStatus('incompatible');
        return;
      }
      if (this.stopped) return;
      // Any other close, the server's 1001 on shutdown included, means "come back": the
      // subscriptions are kept and resumed in the next hello.
      this.setStatus('reconnecting');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const { baseDelayMs, maxDelayMs } = this.options;
    const delay =
      Math.min(maxDelayMs, baseDelayMs * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
  }

  private receive(raw: unknown): void {
    let json: unknown;
    try {
      json = JSON.parse(typeof raw === 'string' ? raw : String(raw));
    } catch {
      this.protocolProblem('The server sent a frame that is not JSON.');
      return;
    }
    if ((json as { type?: unknown } | null)?.type === 'snapshot') {
      const checked = parseSnapshot(json);
      if (checked.ok) this.dispatch(checked.snapshot);
      else this.problem(`The server sent a snapshot the page cannot read: ${checked.problem}`);
      return;
    }
    const parsed = ServerMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.unreadable(json, issueText(parsed.error));
      return;
    }
    // Snapshots were read above, their tree decoded; a frame parsed here is never one.
    if (parsed.data.type !== 'snapshot') this.dispatch(parsed.data);
  }

  /**
   * A frame that broke the protocol: an answer rejects its command, an event reloads its session
   * (applying the events after it would leave the page wrong), anything else is reported.
   */
  private unreadable(json: unknown, why: string): void {
    const frame = json as { type?: unknown; id?: unknown; sessionId?: unknown } | null;
    const text = `The server sent ${frameName(json)} the page cannot read (${why}).`;
    const request = typeof frame?.id === 'string' ? this.pending.get(frame.id) : undefined;
    if (frame?.type === 'response' && request) {
      this.pending.delete(frame.id as string);
      request.reject(new CommandError('bad_frame', text));
      return;
    }
    const sessionId = frame?.sessionId;
    if (
      frame?.type === 'event' &&
      typeof sessionId === 'string' &&
      this.subscriptions.has(sessionId)
    ) {
      if (this.reloading.has(sessionId)) return;
      this.reloading.add(sessionId);
      this.protocolProblem(`${text} The session is reloaded from the server.`);
      this.resync(sessionId).catch(() => this.reloading.delete(sessionId));
      return;
    }
    this.protocolProblem(text);
  }

  /** A command's answer, parsed with the schema of that command's result. */
  private answer(request: PendingRequest, id: string, data: unknown): void {
    this.pending.delete(id);
    const parsed = CommandResultSchemas[request.type].safeParse(data ?? {});
    if (parsed.success) request.resolve(parsed.data);
    else {
      const why = `its answer to "${request.type}", ${issueText(parsed.error)}`;
      request.reject(
        new CommandError('bad_frame', `The server sent an answer the page cannot read (${why}).`),
      );
    }
  }

  private dispatch(frame: PageMessage): void {
    switch (frame.type) {
      case 'welcome': {
        this.welcomeInfo = frame;
        this.attempt = 0;
        this.setStatus('open');
        const queued = this.outbox.splice(0);
        for (const { frame: text } of queued) this.socket?.send(text);
        return;
      }
      case 'response': {
        const request = this.pending.get(frame.id);
        if (!request) return;
        if (frame.ok) this.answer(request, frame.id, frame.data);
        else {
          this.pending.delete(frame.id);
          request.reject(new CommandError(frame.error.code, frame.error.message));
        }
        return;
      }
      case 'error': {
        const request = frame.id === undefined ? undefined : this.pending.get(frame.id);
        if (request && frame.id !== undefined) {
          this.pending.delete(frame.id);
          request.reject(new CommandError(frame.code, frame.message));
        } else {
          this.problem(frame.message);
        }
        return;
      }
      case 'snapshot':
        this.reloading.delete(frame.sessionId);
        if (this.subscriptions.has(frame.sessionId))
          this.subscriptions.set(frame.sessionId, frame.seq);
        this.emit(frame);
        return;
      case 'event': {
        if (this.reloading.has(frame.sessionId)) return;
        const last = this.subscriptions.get(frame.sessionId);
        if (typeof last === 'number' && frame.seq <= last) return;
        if (typeof last === 'number') this.subscriptions.set(frame.sessionId, frame.seq);
        this.emit(frame);
        return;
      }
      case 'resync_required':
        this.emit(frame);
        return;
      case 'session_closed':
        this.subscriptions.delete(frame.sessionId);
        this.emit(frame);
        return;
    }
  }

  private emit(frame: SessionFrame): void {
    for (const listener of this.frameListeners) listener(frame);
  }

  /** A frame that broke the protocol, told once however often the server repeats it. */
  private protocolProblem(text: string): void {
    if (this.reported.has(text)) return;
    this.reported.add(text);
    this.problem(text);
  }

  private problem(text: string): void {
    for (const listener of this.problemListeners) listener(text);
  }

  /** Rejects the commands in flight (their answer cannot come now), and with `all` the queued ones. */
  private failPending(message: string, all = false): void {
    const queued = new Set(all ? [] : this.outbox.map((item) => item.id));
    if (all) this.outbox.length = 0;
    const lost = [...this.pending].filter(([id]) => !queued.has(id));
    for (const [id] of lost) this.pending.delete(id);
    for (const [, request] of lost) request.reject(new CommandError('disconnected', message));
  }

  private setStatus(status: SocketStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }
}

/** The WebSocket URL of the server that served this page. */
export function defaultSocketUrl(location: Location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/ws`;
}
