import { z } from 'zod';
import {
  ErrorBodySchema,
  ModelSummarySchema,
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
  /** What the user who asked may do to it, by the rule of shared/authorisation.ts. */
  may: z.object({ rename: z.boolean(), delete: z.boolean() }),
});
export type SessionListItem = z.infer<typeof SessionListItemSchema>;

/** `POST /api/workspaces/:id/import`: the session made, and the file's own id when it was taken. */
export const ImportAnswerSchema = z.object({
  session: z.looseObject({ id: SessionIdSchema }),
  replacedId: z.string().optional(),
});

export const SessionListSchema = z.object({ sessions: z.array(SessionListItemSchema) });
export const WorkspaceListSchema = z.object({ workspaces: z.array(WorkspaceInfoSchema) });

export const RenameRequestSchema = z.object({ name: z.string().min(1).max(200) });

/** The longest search query; a longer one is refused with a message. */
export const SEARCH_QUERY_MAX = 200;

/** One place a search matched: a message of the session (by entry), or its name. */
export const SearchHitSchema = z.object({
  /** The entry that matched; absent for the session's name. */
  entryId: z.string().optional(),
  where: z.enum(['name', 'user', 'assistant', 'toolResult', 'bashExecution']),
  /** The text around the match, whitespace folded, `…` where it was cut. */
  snippet: z.string(),
  /** Where the match lies in `snippet`: [start, end) in UTF-16 units. */
  match: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SessionSearchResultSchema = z.object({
  sessionId: SessionIdSchema,
  /** The first hits in file order (oldest first), up to the per-session cap. */
  hits: z.array(SearchHitSchema),
  /** True when the session has more hits than it lists. */
  moreHits: z.boolean(),
});
export type SessionSearchResult = z.infer<typeof SessionSearchResultSchema>;

export const SearchAnswerSchema = z.object({
  /** Sessions with hits, newest first. */
  results: z.array(SessionSearchResultSchema),
  /** False when a limit ended the search early (sessions cap, time, a file's byte budget). */
  complete: z.boolean(),
  /** What was left out and why, in words, when `complete` is false. */
  note: z.string().optional(),
});
export type SearchAnswer = z.infer<typeof SearchAnswerSchema>;

/** `GET /api/models?q=&limit=`: the models in use matching q, of the whole catalog. */
export const MODEL_QUERY_MAX = 200;
export const MODEL_LIMIT_MAX = 200;
export const ModelListSchema = z.object({
  models: z.array(ModelSummarySchema),
  /** How many models match in all (more than listed when the limit cut the list). */
  total: z.number().int().nonnegative(),
});
export type ModelList = z.infer<typeof ModelListSchema>;

/** `GET`/`PUT /api/models/enabled`: pi's `enabledModels` patterns, or null for every model. */
export const ENABLED_PATTERNS_MAX = 500;
export const EnabledModelsSchema = z.object({
  patterns: z
    .array(z.string().trim().min(1).max(MODEL_QUERY_MAX))
    .max(ENABLED_PATTERNS_MAX)
    .nullable(),
});
export type EnabledModels = z.infer<typeof EnabledModelsSchema>;
/** The answer to a change: the patterns and how many models they put in use. */
export type EnabledModelsAnswer = EnabledModels & { models: number };

/** Where a provider's requests get their key from, as an admin's settings show it (never the key). */
export const KEY_SOURCES = ['saved', 'subscription', 'models.json', 'environment'] as const;
/** `GET /api/providers` (admins): every provider of the catalog and where its key comes from. */
export const ProviderListSchema = z.object({
  providers: z.array(
    z.object({
      provider: z.string(),
      /** How many of its models the catalog holds. */
      models: z.number().int().nonnegative(),
      /** null: none; its models say why (`noKey`). */
      key: z.enum(KEY_SOURCES).nullable(),
    }),
  ),
});
export type ProviderList = z.infer<typeof ProviderListSchema>;
export type KeySource = (typeof KEY_SOURCES)[number];

/** Body of every non-2xx REST answer. */
export const HttpErrorSchema = z.object({ error: ErrorBodySchema });
export type HttpError = z.infer<typeof HttpErrorSchema>;

/** A share link as `GET/POST /api/sessions/:id/shares` answer it (docs/decisions/088). */
export const ShareLinkSchema = z.object({
  token: z.string(),
  url: z.string(),
  leafId: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  mayRevoke: z.boolean(),
});
export type ShareLink = z.infer<typeof ShareLinkSchema>;
export const ShareListSchema = z.object({ shares: z.array(ShareLinkSchema) });
