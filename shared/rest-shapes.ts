import { z } from 'zod';
import {
  ErrorBodySchema,
  SessionIdSchema,
  UserSummarySchema,
  WorkspaceIdSchema,
} from './protocol.js';

/*
 * The shapes of Arbor's REST answers and requests (the WebSocket's are in protocol.ts).
 */

export const HealthSchema = z.object({
  ok: z.literal(true),
  version: z.string(),
  protocolVersion: z.number().int(),
});
export type Health = z.infer<typeof HealthSchema>;

export const MeSchema = z.object({ user: UserSummarySchema, authRequired: z.boolean() });
export type Me = z.infer<typeof MeSchema>;

export const LoginRequestSchema = z.object({ token: z.string().min(1).max(512) });
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const WorkspaceInfoSchema = z.object({
  id: WorkspaceIdSchema,
  /** The directory's base name, for display. */
  name: z.string(),
  /** The directory on the server, for display only; clients always send `id`. */
  path: z.string(),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfoSchema>;

export const SessionListItemSchema = z.object({
  id: SessionIdSchema,
  workspaceId: WorkspaceIdSchema,
  name: z.string().optional(),
  firstMessage: z.string(),
  created: z.string(),
  modified: z.string(),
  messageCount: z.number().int(),
  /** The session this one was forked or cloned from, when it is known to this server. */
  parentSessionId: z.string().optional(),
  owner: z.string().nullable(),
});
export type SessionListItem = z.infer<typeof SessionListItemSchema>;

export const SessionListSchema = z.object({ sessions: z.array(SessionListItemSchema) });
export const WorkspaceListSchema = z.object({ workspaces: z.array(WorkspaceInfoSchema) });

export const RenameRequestSchema = z.object({ name: z.string().min(1).max(200) });

/** Body of every non-2xx REST answer. */
export const HttpErrorSchema = z.object({ error: ErrorBodySchema });
export type HttpError = z.infer<typeof HttpErrorSchema>;
