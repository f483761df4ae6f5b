import type { AgentSessionEvent } from '../../shared/agent-events.js';
import type {
  EventFrame,
  ModelSummary,
  RunningTool,
  SessionAccess,
  Snapshot,
} from '../../shared/protocol.js';
import type { AgentSession } from '../agent/agent-session.js';
import type { Workspace } from '../config/workspaces.js';
import { DeltaCoalescer } from './delta-coalescer.js';
import { fitBody } from './fit-body.js';
import { MAX_FRAME_BODY_BYTES, SNAPSHOT_MESSAGES, snapshotMessages } from './path-messages.js';
import { ReplayBuffer } from './replay-buffer.js';

/*
 * One open session on the server: its AgentSession, the ordered stream of its events with their
 * sequence numbers, the recent frames for reconnecting clients, and its subscribers. Each event is
 * serialised once into UTF-8 JSON and the same bytes go to every subscriber, so all of them see the
 * same events in the same order (and a fan-out to many clients costs one encoding).
 */

/**
 * The frame's JSON, with its event cut to fit a frame's body budget when it carries a body too
 * big to send (a prompt's pictures, a huge tool output; fit-body.ts).
 */
function eventJson(frame: EventFrame): string {
  const json = JSON.stringify(frame);
  // A character takes at most 3 bytes in UTF-8, so most frames need no count.
  if (json.length <= MAX_FRAME_BODY_BYTES / 3 || Buffer.byteLength(json) <= MAX_FRAME_BODY_BYTES)
    return json;
  return JSON.stringify({ ...frame, event: fitBody(frame.event, MAX_FRAME_BODY_BYTES / 2).value });
}

/** A client's end of a subscription; it handles its own backpressure. */
export interface Subscriber {
  /** `json` is the event frame's JSON in UTF-8, encoded once for all subscribers. */
  deliver(sessionId: string, seq: number, json: Buffer): void;
  /** The session went away for the subscriber (deleted, or its access revoked). */
  sessionClosed(sessionId: string, reason: SessionClosedReason): void;
}

export type SessionClosedReason = 'deleted' | 'forbidden';

export interface LiveSessionOptions {
  agent: AgentSession;
  workspace: Workspace;
  coalesceMs: number;
  replayEvents: number;
}

export class LiveSession {
  readonly sessionId: string;
  readonly workspace: Workspace;
  readonly agent: AgentSession;
  /**
   * Sequence numbers start at a time-derived base, so a stream opened later (after an idle close
   * or a restart) never reuses numbers a client may still hold: its stale `lastSeq` lies below the
   * new base and earns a snapshot instead of wrong events.
   */
  readonly baseSeq: number;
  private seq: number;
  private readonly replay: ReplayBuffer;
  private readonly coalescer: DeltaCoalescer;
  private readonly subscribers = new Set<Subscriber>();
  private readonly unsubscribeAgent: () => void;
  private readonly tools = new Map<string, RunningTool>();
  /** performance.now() of the last event or subscription change; drives the idle close. */
  lastActivity = performance.now();
  disposed = false;

  constructor(opts: LiveSessionOptions) {
    this.agent = opts.agent;
    this.workspace = opts.workspace;
    this.sessionId = opts.agent.view.sessionId;
    this.baseSeq = Date.now() * 1000;
    this.seq = this.baseSeq;
    this.replay = new ReplayBuffer(opts.replayEvents);
    this.coalescer = new DeltaCoalescer(opts.coalesceMs, (event) => this.emit(event));
    this.unsubscribeAgent = this.agent.subscribe((event) => this.coalescer.push(event));
  }

  get currentSeq(): number {
    return this.seq;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  isBusy(): boolean {
    return this.agent.isBusy();
  }

  /**
   * Subscribes and returns the frames the subscriber missed since `lastSeq` when they are all still
   * held, else `undefined` (the caller then sends a snapshot). Synchronous, so no event can slip
   * between the answer and the subscription.
   */
  subscribe(subscriber: Subscriber, lastSeq?: number): Buffer[] | undefined {
    this.coalescer.flush();
    this.subscribers.add(subscriber);
    this.lastActivity = performance.now();
    return lastSeq === undefined ? undefined : this.replay.since(lastSeq, this.seq, this.baseSeq);
  }

  unsubscribe(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    this.lastActivity = performance.now();
  }

  /**
   * Everything a client needs to show the session, consistent with `seq`; the path's bodies in it
   * take at most `bodyBudgetBytes` (see path-messages.ts).
   */
  snapshot(models: ModelSummary[], access: SessionAccess, bodyBudgetBytes?: number): Snapshot {
    this.coalescer.flush();
    const store = this.agent.view;
    const name = store.getSessionName();
    return {
      type: 'snapshot',
      sessionId: this.sessionId,
      workspaceId: this.workspace.id,
      seq: this.seq,
      header: store.header,
      ...(name !== undefined ? { sessionName: name } : {}),
      tree: store.getTree(),
      leafId: store.getLeafId(),
      ...snapshotMessages(store.getBranch(), SNAPSHOT_MESSAGES, bodyBudgetBytes),
      state: this.agent.getState(),
      models,
      access,
      streamingMessage: this.agent.getStreamingMessage(),
      runningTools: [...this.tools.values()],
    };
  }

  /**
   * Stops listening to the agent and disposes it (aborting a run, persisting, closing the file).
   * With a reason, subscribers are told the session closed under them.
   */
  async dispose(reason?: SessionClosedReason): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.coalescer.dispose();
    if (reason) {
      for (const subscriber of [...this.subscribers])
        subscriber.sessionClosed(this.sessionId, reason);
    }
    try {
      await this.agent.dispose();
    } finally {
      this.unsubscribeAgent();
      this.subscribers.clear();
    }
  }

  private emit(event: AgentSessionEvent): void {
    this.track(event);
    const seq = ++this.seq;
    const frame: EventFrame = { type: 'event', sessionId: this.sessionId, seq, event };
    const bytes = Buffer.from(eventJson(frame));
    this.replay.push(seq, bytes);
    // Deltas only come while a run keeps the session busy, and a run ends with other events, so
    // the idle clock needs no update per delta.
    if (event.type !== 'message_update') this.lastActivity = performance.now();
    for (const subscriber of this.subscribers) subscriber.deliver(this.sessionId, seq, bytes);
  }

  /** Keeps the running tools up to date, for snapshots taken mid-run (the agent keeps the message). */
  private track(event: AgentSessionEvent): void {
    switch (event.type) {
      case 'tool_execution_start':
        this.tools.set(event.toolCallId, {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: event.args,
        });
        return;
      case 'tool_execution_update': {
        const tool = this.tools.get(event.toolCallId);
        if (tool) tool.partialResult = event.partialResult;
        return;
      }
      case 'tool_execution_end':
        this.tools.delete(event.toolCallId);
        return;
      case 'agent_end':
        this.tools.clear();
        return;
      default:
        return;
    }
  }
}
