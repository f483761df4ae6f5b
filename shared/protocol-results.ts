import { z } from 'zod';
import { AgentMessageSchema, ImageContentSchema } from './messages.js';
import { AgentStateSchema } from './protocol-events.js';
import { SessionStatsSchema } from './session-stats-schema.js';
import { TreeNodeSchema } from './session-entries.js';
import { WorkspaceResourcesSchema } from './resources.js';

/*
 * What each command answers with (`response.data` when ok), as schemas: a client parses the data
 * of every answer with the schema of the command it sent (CommandResults is inferred from them).
 */

const empty = z.object({});

export const PathMessageSchema = z.object({
  /** The entry the message came from; absent for messages synthesised by context building. */
  entryId: z.string().nullable(),
  message: AgentMessageSchema,
  /** Who sent the prompt, when its entry says (decision 112). */
  author: z.string().optional(),
});

export const CommandResultSchemas = {
  subscribe: z.object({ seq: z.number().int() }),
  unsubscribe: empty,
  /** Sent once the run has started; its events follow on the session's stream. */
  prompt: z.object({ accepted: z.literal(true) }),
  steer: z.object({ queued: z.literal(true) }),
  follow_up: z.object({ queued: z.literal(true) }),
  abort: empty,
  clear_queue: z.object({ steering: z.array(z.string()), followUp: z.array(z.string()) }),
  dequeue: z.object({ text: z.string(), images: z.array(ImageContentSchema) }),
  get_state: AgentStateSchema,
  /** Read afresh for the answer, as the next request will read them. */
  get_resources: WorkspaceResourcesSchema,
  /** The skeleton of every entry, as in the snapshot. */
  get_tree: z.object({ tree: z.array(TreeNodeSchema), leafId: z.string().nullable() }),
  /**
   * Entries in the order asked (each is parsed as a session entry by the client, which marks
   * one that does not read as unavailable); ids that do not exist are listed in `missing`;
   * `deferred`: ids left out to keep the answer within a frame's budget, to ask for again. A body
   * too big for one frame comes cut, its long strings ending in a marker (decision 055).
   */
  get_entries: z.object({
    entries: z.array(z.record(z.string(), z.unknown())),
    missing: z.array(z.string()),
    deferred: z.array(z.string()).optional(),
  }),
  /**
   * The newest messages of the path root → `entryId` (as a snapshot's `messages`, within the same
   * window and byte budget) and how many older path messages were left out.
   */
  get_path: z.object({
    entryId: z.string(),
    messages: z.array(PathMessageSchema),
    omittedMessages: z.number().int().min(0),
  }),
  /** `editorText` and `editorImages`: the clicked prompt, back in the editor to edit and run again. */
  navigate_tree: z.object({
    editorText: z.string().optional(),
    editorImages: z.array(ImageContentSchema).optional(),
    cancelled: z.boolean(),
  }),
  /** The new session (the client subscribes to it to open it); `editorText` is the forked prompt. */
  fork: z.object({ sessionId: z.string(), editorText: z.string() }),
  clone: z.object({ sessionId: z.string() }),
  new_session: z.object({ sessionId: z.string() }),
  /** The connection is now subscribed to this session only; its snapshot came first. */
  switch_session: z.object({ seq: z.number().int() }),
  compact: z.object({
    summary: z.string(),
    firstKeptEntryId: z.string(),
    tokensBefore: z.number(),
  }),
  set_model: empty,
  set_thinking_level: empty,
  set_label: empty,
  set_session_name: empty,
  /** The bashExecution entry is saved (it arrives as `entry_appended` too). */
  bash: empty,
  /** The id of the context_edit entry written (it arrives as `entry_appended` too). */
  edit_context: z.object({ entryId: z.string() }),
  get_session_stats: SessionStatsSchema,
  ping: z.object({ time: z.number() }),
} as const;

export type CommandResultType = keyof typeof CommandResultSchemas;
export type CommandResults = {
  [K in CommandResultType]: z.infer<(typeof CommandResultSchemas)[K]>;
};
