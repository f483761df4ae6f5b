import {
  applyAssistantDelta,
  assertNever,
  type AgentSessionEvent,
  type ToolResultPayload,
} from '../../../shared/agent-events';
import type { AgentMessage, AssistantMessage } from '../../../shared/messages';
import type {
  AgentState,
  ModelSummary,
  SessionAccess,
  SessionSnapshot,
  EventFrame,
  PathMessage,
} from '../../../shared/protocol';
import { messageOfEntry } from '../../../shared/entry-messages';
import type { ContextEditEntry, SessionEntry, TreeNode } from '../../../shared/session-entries';

/*
 * The page's picture of one session, as a pure reducer over what the server sends: a snapshot,
 * then events in `seq` order. Entry bodies are cached by id (entries never change), so moving the
 * leaf only needs the bodies of entries the page has not seen yet.
 */

export interface ToolRun {
  toolCallId: string;
  toolName: string;
  args: unknown;
  running: boolean;
  result?: ToolResultPayload;
  isError?: boolean;
  durationMs?: number;
}

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
  /** True only while a run goes on ("The session is running…"): dropped when it ends. */
  untilIdle?: boolean;
}

export interface SessionView {
  sessionId: string;
  workspaceId: string;
  /** The last applied event's seq (or the snapshot's). */
  seq: number;
  /** True when an event arrived after a gap: the page must ask for a fresh snapshot. */
  needsResync: boolean;
  header: SessionSnapshot['header'];
  sessionName?: string;
  tree: TreeNode[];
  byId: Map<string, TreeNode>;
  leafId: string | null;
  /** Renderable bodies of entries (messages, summaries) by entry id. */
  bodies: Map<string, AgentMessage>;
  /** Who sent each prompt whose entry says so (a team member's name), by entry id. */
  authors: Map<string, string>;
  /** Bodies of context_edit entries by entry id (what the chat and graph show of them). */
  contextEdits: Map<string, ContextEditEntry>;
  /**
   * The first kept entry of each compaction the page has read (id → its `firstKeptEntryId`):
   * what the model's context holds after it (shared/model-context.ts).
   */
  compactions: ReadonlyMap<string, string | undefined>;
  /** Entries whose body the server could not give (missing or unreadable): never asked again. */
  unavailable: ReadonlySet<string>;
  /** The message being streamed (between message_start and message_end). */
  streaming: AgentMessage | null;
  /** Messages that ended without being saved (no entry names them), oldest first. */
  unsaved: AgentMessage[];
  /** Entries announced whose message has not ended yet (ids): their `message_end` brings it. */
  awaitingBody: string[];
  toolRuns: Map<string, ToolRun>;
  state: AgentState;
  models: ModelSummary[];
  access: SessionAccess;
  compacting: string | null;
  retry: { attempt: number; maxAttempts: number; delayMs: number; errorMessage: string } | null;
  notices: Notice[];
  /** The id of the newest notice given so far (kept across sessions, so ids never repeat). */
  noticeSeq: number;
  /** Set when the server closed the session (deleted, shut down): its notices are about that. */
  closed?: string;
}

export type SessionAction =
  | { type: 'snapshot'; snapshot: SessionSnapshot }
  | { type: 'event'; frame: EventFrame }
  | { type: 'entries_loaded'; entries: SessionEntry[]; unavailable?: string[] }
  /** Bodies of path messages (a `get_path` answer: another branch being read). */
  | { type: 'messages_loaded'; sessionId: string; messages: PathMessage[] }
  /** `sessionId`: the session it is about; dropped when another one is open by then. */
  | { type: 'notice'; kind: Notice['kind']; text: string; untilIdle?: boolean; sessionId?: string }
  | { type: 'dismiss_notice'; id: number }
  | { type: 'closed'; sessionId: string; reason: string };

function isToolPayload(value: unknown): value is ToolResultPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

function fromSnapshot(snapshot: SessionSnapshot, previous: SessionView | null): SessionView {
  const byId = new Map<string, TreeNode>();
  const tree: TreeNode[] = [];
  for (const node of snapshot.tree) {
    if (byId.has(node.id)) continue;
    byId.set(node.id, node);
    tree.push(node);
  }
  const same = previous && previous.sessionId === snapshot.sessionId;
  const bodies = same ? new Map(previous.bodies) : new Map<string, AgentMessage>();
  const authors = same ? new Map(previous.authors) : new Map<string, string>();
  for (const { entryId, message, author } of snapshot.messages) {
    if (entryId === null) continue;
    bodies.set(entryId, message);
    if (author !== undefined) authors.set(entryId, author);
  }
  const view: SessionView = {
    sessionId: snapshot.sessionId,
    workspaceId: snapshot.workspaceId,
    seq: snapshot.seq,
    needsResync: false,
    header: snapshot.header,
    tree,
    byId,
    leafId: snapshot.leafId,
    bodies,
    authors,
    contextEdits:
      previous && previous.sessionId === snapshot.sessionId ? previous.contextEdits : new Map(),
    compactions:
      previous && previous.sessionId === snapshot.sessionId ? previous.compactions : new Map(),
    unavailable:
      previous && previous.sessionId === snapshot.sessionId ? previous.unavailable : new Set(),
    streaming: snapshot.streamingMessage ? structuredClone(snapshot.streamingMessage) : null,
    unsaved: [],
    awaitingBody: [],
    toolRuns: new Map(
      (snapshot.runningTools ?? []).map((tool) => [
        tool.toolCallId,
        {
          toolCallId: tool.toolCallId,
          toolName: tool.toolName,
          args: tool.args,
          running: true,
          ...(isToolPayload(tool.partialResult) ? { result: tool.partialResult } : {}),
        },
      ]),
    ),
    state: snapshot.state,
    models: snapshot.models,
    access: snapshot.access,
    compacting: snapshot.state.isCompacting ? 'manual' : null,
    retry: null,
    // A session opened again after it was closed (a delete undone) starts clean: what was said
    // about its closing is over.
    notices:
      previous?.sessionId === snapshot.sessionId && previous.closed === undefined
        ? previous.notices
        : [],
    noticeSeq: previous?.noticeSeq ?? 0,
  };
  if (snapshot.sessionName !== undefined) view.sessionName = snapshot.sessionName;
  return view;
}

function withNotice(
  view: SessionView,
  kind: Notice['kind'],
  text: string,
  untilIdle = false,
): SessionView {
  const noticeSeq = view.noticeSeq + 1;
  const notice: Notice = { id: noticeSeq, kind, text, ...(untilIdle ? { untilIdle } : {}) };
  const notices = [...view.notices, notice].slice(-5);
  return { ...view, notices, noticeSeq };
}

function cloneForDelta(message: AssistantMessage, index: number): AssistantMessage {
  const content = message.content.slice();
  const block = content[index];
  if (block) content[index] = { ...block };
  return { ...message, content };
}

function isMessageEntry(node: TreeNode): boolean {
  return node.type === 'message' || node.type === 'custom_message';
}

function applyEvent(view: SessionView, event: AgentSessionEvent): SessionView {
  switch (event.type) {
    case 'agent_start':
      return { ...view, state: { ...view.state, isStreaming: true } };
    case 'agent_end':
      return {
        ...view,
        streaming: null,
        retry: null,
        state: { ...view.state, isStreaming: false },
        // What was true only while the run went on is not true now.
        notices: view.notices.some((notice) => notice.untilIdle)
          ? view.notices.filter((notice) => !notice.untilIdle)
          : view.notices,
      };
    case 'turn_start':
    case 'turn_end':
      return view;
    case 'message_start':
      return { ...view, streaming: structuredClone(event.message) };
    case 'message_update': {
      const current = view.streaming;
      if (!current || current.role !== 'assistant') return view;
      const next = cloneForDelta(current, event.assistantMessageEvent.contentIndex);
      applyAssistantDelta(next, event.assistantMessageEvent);
      return { ...view, streaming: next };
    }
    case 'message_end': {
      // The message is the body of the entry it names; one that names none was not saved.
      let next: SessionView = { ...view, streaming: null };
      const { message, entryId, author } = event;
      if (entryId !== undefined) {
        const bodies = new Map(view.bodies);
        bodies.set(entryId, message);
        const awaitingBody = view.awaitingBody.filter((id) => id !== entryId);
        next = { ...next, bodies, awaitingBody };
        if (author !== undefined) next.authors = new Map(view.authors).set(entryId, author);
      } else {
        next.unsaved = [...view.unsaved, message];
      }
      if (message.role === 'toolResult') {
        const toolRuns = new Map(view.toolRuns);
        toolRuns.delete(message.toolCallId);
        next.toolRuns = toolRuns;
      }
      return next;
    }
    case 'tool_execution_start': {
      const toolRuns = new Map(view.toolRuns);
      toolRuns.set(event.toolCallId, {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: event.args,
        running: true,
      });
      return { ...view, toolRuns };
    }
    case 'tool_execution_update':
    case 'tool_execution_end': {
      const toolRuns = new Map(view.toolRuns);
      const run: ToolRun = toolRuns.get(event.toolCallId) ?? {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: event.type === 'tool_execution_update' ? event.args : undefined,
        running: true,
      };
      if (event.type === 'tool_execution_update') {
        toolRuns.set(event.toolCallId, { ...run, result: event.partialResult });
      } else {
        toolRuns.set(event.toolCallId, {
          ...run,
          running: false,
          result: event.result,
          isError: event.isError,
          ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
        });
      }
      return { ...view, toolRuns };
    }
    case 'auto_retry_start':
      return {
        ...view,
        retry: {
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          delayMs: event.delayMs,
          errorMessage: event.errorMessage,
        },
      };
    case 'auto_retry_end': {
      const next = { ...view, retry: null };
      return event.success
        ? next
        : withNotice(next, 'error', `Retry failed: ${event.finalError ?? 'unknown error'}`);
    }
    case 'queue_update':
      return {
        ...view,
        state: { ...view.state, steering: event.steering, followUp: event.followUp },
      };
    case 'compaction_start':
      return {
        ...view,
        compacting: event.reason,
        state: { ...view.state, isCompacting: true },
      };
    case 'compaction_end': {
      const next = { ...view, compacting: null, state: { ...view.state, isCompacting: false } };
      // A manual compaction's error already says "Compaction failed: …" (as pi says it).
      if (event.errorMessage)
        return withNotice(
          next,
          'error',
          event.errorMessage.startsWith('Compaction failed')
            ? event.errorMessage
            : `Compaction failed: ${event.errorMessage}`,
        );
      if (event.aborted) return withNotice(next, 'info', 'Compaction cancelled.');
      return next;
    }
    case 'entry_appended': {
      const node = event.node;
      // An entry is appended at the leaf and becomes it (a label's and a name's too).
      const state = { ...view.state, leafId: node.id };
      if (view.byId.has(node.id)) return { ...view, leafId: node.id, state };
      const byId = new Map(view.byId);
      byId.set(node.id, node);
      let next: SessionView = { ...view, byId, tree: [...view.tree, node], leafId: node.id, state };
      // Its message_end (next) names it and brings its body.
      if (isMessageEntry(node) && !view.bodies.has(node.id))
        next = { ...next, awaitingBody: [...view.awaitingBody, node.id] };
      return next;
    }
    case 'leaf_moved':
      return {
        ...view,
        leafId: event.leafId,
        state: { ...view.state, leafId: event.leafId },
      };
    case 'label_changed': {
      const target = view.byId.get(event.targetId);
      if (!target) return view;
      const updated: TreeNode = { ...target };
      if (event.label) updated.label = event.label;
      else delete updated.label;
      const byId = new Map(view.byId);
      byId.set(updated.id, updated);
      const tree = view.tree.map((node) => (node.id === updated.id ? updated : node));
      return { ...view, byId, tree };
    }
    case 'session_info_changed': {
      const next = { ...view };
      if (event.name === undefined) delete next.sessionName;
      else next.sessionName = event.name;
      return next;
    }
    case 'thinking_level_changed':
      return { ...view, state: { ...view.state, thinkingLevel: event.level } };
    case 'model_changed':
      // Its usage against the new window follows in `state_changed`.
      return {
        ...view,
        state: { ...view.state, provider: event.provider, modelId: event.modelId },
      };
    case 'state_changed':
      // The server's figures, taken as they are: the page computes none of them.
      return { ...view, state: event.state };
    default:
      return assertNever(event);
  }
}

/**
 * The next view. Events for another session, or with a seq already applied, change nothing; an
 * event after a gap marks the view for a resync instead of applying out of order.
 */
export function sessionReducer(
  view: SessionView | null,
  action: SessionAction,
): SessionView | null {
  if (action.type === 'snapshot') return fromSnapshot(action.snapshot, view);
  if (!view) return view;
  switch (action.type) {
    case 'event': {
      const frame = action.frame;
      if (frame.sessionId !== view.sessionId || frame.seq <= view.seq) return view;
      if (frame.seq > view.seq + 1) return { ...view, needsResync: true };
      return { ...applyEvent(view, frame.event), seq: frame.seq };
    }
    case 'entries_loaded': {
      const bodies = new Map(view.bodies);
      let authors = view.authors;
      let contextEdits = view.contextEdits;
      let compactions = view.compactions;
      for (const entry of action.entries) {
        const body = messageOfEntry(entry);
        if (body) bodies.set(entry.id, body);
        if (entry.type === 'message' && entry.author !== undefined)
          authors = new Map(authors).set(entry.id, entry.author);
        if (entry.type === 'context_edit') {
          if (contextEdits === view.contextEdits) contextEdits = new Map(contextEdits);
          contextEdits.set(entry.id, entry);
        }
        if (entry.type === 'compaction') {
          const next = new Map(compactions);
          next.set(entry.id, entry.firstKeptEntryId);
          compactions = next;
        }
      }
      if (!action.unavailable?.length)
        return { ...view, bodies, authors, contextEdits, compactions };
      return {
        ...view,
        bodies,
        authors,
        contextEdits,
        compactions,
        unavailable: new Set([...view.unavailable, ...action.unavailable]),
      };
    }
    case 'messages_loaded': {
      if (action.sessionId !== view.sessionId) return view;
      const fresh = action.messages.filter(
        (item) => item.entryId !== null && !view.bodies.has(item.entryId),
      );
      if (fresh.length === 0) return view;
      const bodies = new Map(view.bodies);
      const authors = new Map(view.authors);
      for (const { entryId, message, author } of fresh) {
        bodies.set(entryId!, message);
        if (author !== undefined) authors.set(entryId!, author);
      }
      return { ...view, bodies, authors };
    }
    case 'notice':
      if (action.sessionId !== undefined && action.sessionId !== view.sessionId) return view;
      return withNotice(view, action.kind, action.text, action.untilIdle);
    case 'dismiss_notice':
      return { ...view, notices: view.notices.filter((n) => n.id !== action.id) };
    case 'closed':
      return action.sessionId === view.sessionId ? { ...view, closed: action.reason } : view;
    default:
      return assertNever(action);
  }
}
