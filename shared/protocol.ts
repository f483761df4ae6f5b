import { z } from 'zod';
import { AgentMessageSchema, ImageContentSchema } from './messages.js';
import { AgentSessionEventSchema, AgentStateSchema } from './protocol-events.js';
import { PathMessageSchema } from './protocol-results.js';
import { SessionHeaderSchema, ThinkingLevelSchema, TreeNodeSchema } from './session-entries.js';

export { AgentStateSchema } from './protocol-events.js';
export {
  CommandResultSchemas,
  PathMessageSchema,
  type CommandResults,
} from './protocol-results.js';

/*
 * The WebSocket protocol between Arbor's server and its clients, and the shapes of its REST answers.
 * One discriminated union per direction (`ClientMessage`, `ServerMessage`), parsed with zod on both
 * ends. See docs/protocol.md for the conversation these frames make up.
 */

/**
 * Bumped on any change a client of the previous version could misread. 2: the tree skeleton of
 * `snapshot` and `get_tree` travelled encoded in columns. 3: `message_end` names its entry, the
 * server pushes `state_changed`, and every event and command result has a schema. 4: the tree is
 * a plain `TreeNode[]` again, compressed by the WebSocket's per-message deflate (decision 033).
 * 5: a model is the pair pi names it by: `set_model`, `model_changed` and the session's `state`
 * carry `provider` beside `modelId` (decision 104).
 */
export const PROTOCOL_VERSION = 5;

/** The WebSocket path on the server. */
export const WS_PATH = '/api/ws';

/** Largest frame either side accepts, in bytes (images travel inline, base64). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** What a person is told about a frame of `bytes` over the `limit`, by the page or the server. */
export function frameTooLargeMessage(bytes: number, limit: number): string {
  const mb = (value: number) => (value / 1024 / 1024).toFixed(1);
  return `This is ${mb(bytes)} MB to send at once; the server takes at most ${mb(limit)} MB. Shorten the message, or attach fewer or smaller images.`;
}

// ---------------------------------------------------------------------------------------------
// Identifiers. Clients never send paths: a session is named by its UUID, a workspace by its id.
// The patterns refuse anything path-like (`/`, `\`, `..`) before it reaches a lookup.
// ---------------------------------------------------------------------------------------------

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** pi's session ids: UUIDs, or custom ones (`pi --session-id my.id_1`) that may hold `.` and `_`. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const SessionIdSchema = z.string().regex(SESSION_ID, 'not a session id');
export const WorkspaceIdSchema = z.string().regex(SAFE_ID, 'not a workspace id');
export const EntryIdSchema = z.string().regex(SAFE_ID, 'not an entry id');
/** Request ids are chosen by the client and echoed in the response. */
export const RequestIdSchema = z.string().min(1).max(64);

export const RoleSchema = z.enum(['admin', 'member', 'viewer']);
export type Role = z.infer<typeof RoleSchema>;

export const UserSummarySchema = z.object({ name: z.string(), role: RoleSchema });
export type UserSummary = z.infer<typeof UserSummarySchema>;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** Stable error codes; clients switch on these, never on messages. */
export const ErrorCodeSchema = z.enum([
  'bad_frame', // not JSON, not an object, or no recognisable `type`
  'unknown_command', // a `type` this protocol version does not have
  'invalid_argument', // a known command whose fields do not validate
  'hello_required', // a command before the `hello` frame
  'protocol_version', // the client speaks another protocol version
  'unauthorized', // not logged in
  'forbidden', // logged in, but this user may not do this
  'not_found', // no such session, workspace or entry (or not visible to this user)
  'session_busy', // the session is running and the command needs it idle
  'not_subscribed', // a session command on a session this connection has not subscribed to
  'rate_limited',
  'payload_too_large',
  'conflict',
  'unavailable', // a feature turned off by configuration (e.g. bash policy, compaction missing)
  'disk_full', // the server's disk (or quota) is full: nothing more can be saved until space is freed
  'read_only', // the server's data folder cannot be written: sessions can be read, not changed
  'internal', // anything else; details are in the server log, never in the message
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorBodySchema = z.object({ code: ErrorCodeSchema, message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * Close codes the server uses when it ends a connection on purpose. 1001 (a role changed, or the
 * server stops) asks the client to reconnect and resume its subscriptions; 1009 is sent for a frame
 * over MAX_FRAME_BYTES (by the WebSocket library itself).
 */
export const CloseCode = {
  goingAway: 1001,
  tooBig: 1009,
  unauthorized: 4001,
  protocolVersion: 4002,
  helloTimeout: 4003,
  tooSlow: 4008,
  tooManyBadFrames: 4009,
} as const;

// ---------------------------------------------------------------------------------------------
// Client → server
// ---------------------------------------------------------------------------------------------

export const ResumePointSchema = z.object({
  sessionId: SessionIdSchema,
  /** The last `seq` the client applied for this session. */
  lastSeq: z.number().int().min(0),
});

export const HelloSchema = z.object({
  type: z.literal('hello'),
  protocolVersion: z.number().int(),
  /** Sessions the client was subscribed to before a reconnect; each is resubscribed. */
  resume: z.array(ResumePointSchema).max(64).optional(),
});

const command = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), id: RequestIdSchema, ...shape });

const sessionCommand = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  command(type, { sessionId: SessionIdSchema, ...shape });

/**
 * The longest prompt, steer, follow-up or context replacement, in UTF-16 code units (a string's
 * `length`, which is what zod counts). The page counts against it before sending.
 */
export const MAX_PROMPT_CHARS = 1_000_000;
const PromptTextSchema = z.string().max(MAX_PROMPT_CHARS);
const ImagesSchema = z.array(ImageContentSchema).max(16);

/** The thinking levels a client may pick: the levels a session file records. */
export const ThinkingLevelNameSchema = ThinkingLevelSchema;

export const SubscribeSchema = sessionCommand('subscribe', {
  /** When given and the server still holds every later event, those are replayed instead of a snapshot. */
  lastSeq: z.number().int().min(0).optional(),
});
export const UnsubscribeSchema = sessionCommand('unsubscribe', {});
export const PromptSchema = sessionCommand('prompt', {
  text: PromptTextSchema,
  images: ImagesSchema.optional(),
});
export const SteerSchema = sessionCommand('steer', {
  text: PromptTextSchema,
  images: ImagesSchema.optional(),
});
export const FollowUpSchema = sessionCommand('follow_up', {
  text: PromptTextSchema,
  images: ImagesSchema.optional(),
});
/** The editor's `!command` (`!!command`: excludeFromContext), run in the workspace's shell. */
export const BashSchema = sessionCommand('bash', {
  command: z.string().min(1).max(100_000),
  excludeFromContext: z.boolean().optional(),
});
export const AbortSchema = sessionCommand('abort', {});
export const ClearQueueSchema = sessionCommand('clear_queue', {});
/** Takes back the queued message at `index`, which must still read `text`. */
export const DequeueSchema = sessionCommand('dequeue', {
  queue: z.enum(['steering', 'followUp']),
  index: z.number().int().min(0),
  text: z.string(),
});
export const GetStateSchema = sessionCommand('get_state', {});
/** The session's workspace resources: context files, skills, prompt templates (shared/resources.ts). */
export const GetResourcesSchema = sessionCommand('get_resources', {});
export const GetTreeSchema = sessionCommand('get_tree', {});
export const GetEntriesSchema = sessionCommand('get_entries', {
  ids: z.array(EntryIdSchema).min(1).max(500),
});
/**
 * The messages of the path from the root to `entryId`, windowed as a snapshot's (the newest
 * messages, older ones by `get_entries`): to read another branch without moving the leaf. Reads
 * only; a viewer may ask it too (decision 076).
 */
export const GetPathSchema = sessionCommand('get_path', { entryId: EntryIdSchema });
export const NavigateTreeSchema = sessionCommand('navigate_tree', {
  /** `null` moves the leaf before the first entry (an empty context). */
  targetId: EntryIdSchema.nullable(),
  summarize: z.boolean().optional(),
  customInstructions: z.string().max(100_000).optional(),
  replaceInstructions: z.boolean().optional(),
  label: z.string().max(200).optional(),
});
export const ForkSchema = sessionCommand('fork', { entryId: EntryIdSchema });
export const CloneSchema = sessionCommand('clone', {});
export const NewSessionSchema = command('new_session', { workspaceId: WorkspaceIdSchema });
export const SwitchSessionSchema = command('switch_session', { sessionId: SessionIdSchema });
export const CompactSchema = sessionCommand('compact', {
  customInstructions: z.string().max(100_000).optional(),
});
export const SetModelSchema = sessionCommand('set_model', {
  provider: z.string().min(1).max(200),
  modelId: z.string().min(1).max(200),
});
export const SetThinkingLevelSchema = sessionCommand('set_thinking_level', {
  level: ThinkingLevelNameSchema,
});
export const SetLabelSchema = sessionCommand('set_label', {
  entryId: EntryIdSchema,
  /** Absent or empty clears the label. */
  label: z.string().max(200).optional(),
});
export const SetSessionNameSchema = sessionCommand('set_session_name', {
  name: z.string().min(1).max(200),
});
/**
 * Changes an entry's part of the model's context without branching (a pi 1.6 context_edit at the
 * leaf): `null` hides it from the model, a string replaces its content there, `restore` undoes
 * an earlier edit. Only while the session is idle (decision 064).
 */
export const EditContextSchema = sessionCommand('edit_context', {
  targetId: EntryIdSchema,
  content: z.union([z.null(), PromptTextSchema, z.object({ restore: z.literal(true) })]),
});
/** Tokens and cost of the session and of the path to `entryId` (default: the leaf); reads only. */
export const GetSessionStatsSchema = sessionCommand('get_session_stats', {
  entryId: EntryIdSchema.optional(),
});
export const PingSchema = command('ping', {});

export const CommandSchema = z.discriminatedUnion('type', [
  SubscribeSchema,
  UnsubscribeSchema,
  PromptSchema,
  SteerSchema,
  BashSchema,
  FollowUpSchema,
  AbortSchema,
  ClearQueueSchema,
  DequeueSchema,
  GetStateSchema,
  GetResourcesSchema,
  GetTreeSchema,
  GetEntriesSchema,
  GetPathSchema,
  NavigateTreeSchema,
  ForkSchema,
  CloneSchema,
  NewSessionSchema,
  SwitchSessionSchema,
  CompactSchema,
  SetModelSchema,
  SetThinkingLevelSchema,
  SetLabelSchema,
  SetSessionNameSchema,
  EditContextSchema,
  GetSessionStatsSchema,
  PingSchema,
]);

export const ClientMessageSchema = z.discriminatedUnion('type', [
  HelloSchema,
  ...CommandSchema.options,
]);

export type Hello = z.infer<typeof HelloSchema>;
export type Command = z.infer<typeof CommandSchema>;
export type CommandType = Command['type'];
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

/** Every command type, for servers and tests that must cover each one. */
export const COMMAND_TYPES = CommandSchema.options.map(
  (option) => option.shape.type.value,
) as CommandType[];

// ---------------------------------------------------------------------------------------------
// Shared value shapes
// ---------------------------------------------------------------------------------------------

export type AgentState = z.infer<typeof AgentStateSchema>;

/** A model a client may pick; api keys and base URLs stay on the server. */
export const ModelSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  contextWindow: z.number(),
  maxOutputTokens: z.number(),
  reasoning: z.boolean(),
  /** The thinking levels the model can be asked for, "off" first; other levels are clamped. */
  thinkingLevels: z.array(ThinkingLevelNameSchema).optional(),
  /** Whether the model sees images (those sent to a model that does not are replaced by a note). */
  images: z.boolean().optional(),
  /** USD per million tokens read and written, as the catalog prices them. */
  price: z.object({ input: z.number(), output: z.number() }).optional(),
  demo: z.boolean().optional(),
  /** Set when the server holds no API key for the model: why, in words a person acts on. */
  noKey: z.string().optional(),
});
export type ModelSummary = z.infer<typeof ModelSummarySchema>;

export type PathMessage = z.infer<typeof PathMessageSchema>;

/** What this user may do in a session, so a client can grey out controls. */
export const SessionAccessSchema = z.object({
  canWrite: z.boolean(),
  owner: z.string().nullable(),
});
export type SessionAccess = z.infer<typeof SessionAccessSchema>;

// ---------------------------------------------------------------------------------------------
// Server → client
// ---------------------------------------------------------------------------------------------

export const WelcomeSchema = z.object({
  type: z.literal('welcome'),
  protocolVersion: z.number().int(),
  user: UserSummarySchema,
  server: z.object({
    name: z.literal('arbor'),
    version: z.string(),
    /** False when running on loopback without users: everyone is the implicit admin "local". */
    authRequired: z.boolean(),
    maxFrameBytes: z.number().int(),
  }),
});

export const RunningToolSchema = z.object({
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
  partialResult: z.unknown().optional(),
});
export type RunningTool = z.infer<typeof RunningToolSchema>;

export const SnapshotSchema = z.object({
  type: z.literal('snapshot'),
  sessionId: SessionIdSchema,
  workspaceId: WorkspaceIdSchema,
  /** The seq of the last event folded into this snapshot; the next event has seq + 1. */
  seq: z.number().int().min(0),
  header: SessionHeaderSchema,
  sessionName: z.string().optional(),
  /** The skeleton of every entry, in file order. */
  tree: z.array(TreeNodeSchema),
  leafId: z.string().nullable(),
  /**
   * The newest messages of the active path (at most the server's window, 200), root side first.
   * Older path messages are not sent: fetch their bodies with `get_entries` when they are shown.
   */
  messages: z.array(PathMessageSchema),
  /**
   * How many path messages come before the first of `messages` and were left out. Absent from
   * servers that send the whole path (read it as 0).
   */
  omittedMessages: z.number().int().min(0).optional(),
  state: AgentStateSchema,
  models: z.array(ModelSummarySchema),
  access: SessionAccessSchema,
  /**
   * The message being streamed when the snapshot was taken (after its `message_start`, before its
   * `message_end`), with every delta up to `seq` applied; later `message_update` events extend it.
   */
  streamingMessage: AgentMessageSchema.nullable(),
  /** Tools running when the snapshot was taken, with their latest partial result. */
  runningTools: z.array(RunningToolSchema),
});

export const EventFrameSchema = z.object({
  type: z.literal('event'),
  sessionId: SessionIdSchema,
  /** 1, 2, 3, … per session, without gaps for one subscriber. */
  seq: z.number().int().min(1),
  event: AgentSessionEventSchema,
});

export const ResponseSchema = z.discriminatedUnion('ok', [
  z.object({
    type: z.literal('response'),
    id: RequestIdSchema,
    ok: z.literal(true),
    data: z.unknown().optional(),
  }),
  z.object({
    type: z.literal('response'),
    id: RequestIdSchema,
    ok: z.literal(false),
    error: ErrorBodySchema,
  }),
]);

/** A problem not tied to a request id (a frame that could not be parsed far enough to find one). */
export const ErrorFrameSchema = z.object({
  type: z.literal('error'),
  code: ErrorCodeSchema,
  message: z.string(),
  id: z.string().optional(),
});

/**
 * The server dropped events for this session that the client never got (it fell behind). A fresh
 * `snapshot` of the session follows; the client must replace its state with it.
 */
export const ResyncRequiredSchema = z.object({
  type: z.literal('resync_required'),
  sessionId: SessionIdSchema,
  reason: z.enum(['slow_consumer', 'missed_too_much']),
});

/**
 * The session went away for this client (deleted, or access revoked); it is unsubscribed. A server
 * that stops does not send this: it closes the connection with 1001, and the client comes back
 * and resumes its sessions.
 */
export const SessionClosedSchema = z.object({
  type: z.literal('session_closed'),
  sessionId: SessionIdSchema,
  reason: z.enum(['deleted', 'forbidden']),
});

export const ServerMessageSchema = z.discriminatedUnion('type', [
  WelcomeSchema,
  SnapshotSchema,
  EventFrameSchema,
  ResponseSchema,
  ErrorFrameSchema,
  ResyncRequiredSchema,
  SessionClosedSchema,
]);

export type Welcome = z.infer<typeof WelcomeSchema>;
export type Snapshot = z.infer<typeof SnapshotSchema>;
/** A snapshot as the page holds it (the frame itself: its tree is a `TreeNode[]`). */
export type SessionSnapshot = Snapshot;
export type EventFrame = z.infer<typeof EventFrameSchema>;
export type ResponseFrame = z.infer<typeof ResponseSchema>;
export type ResyncRequired = z.infer<typeof ResyncRequiredSchema>;
export type SessionClosed = z.infer<typeof SessionClosedSchema>;
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
