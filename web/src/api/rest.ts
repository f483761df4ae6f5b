import { z } from 'zod';
import {
  HttpErrorSchema,
  ImportAnswerSchema,
  MeSchema,
  EnabledModelsSchema,
  ModelListSchema,
  ProviderListSchema,
  SearchAnswerSchema,
  SessionListSchema,
  ShareLinkSchema,
  ShareListSchema,
  WorkspaceListSchema,
  type Me,
  type EnabledModels,
  type ModelList,
  type ProviderList,
  type SearchAnswer,
  type SessionListItem,
  type ShareLink,
  type WorkspaceInfo,
} from '../../../shared/rest-shapes';

/*
 * The REST calls the page makes. Every answer is parsed with the shared schemas; a non-2xx answer
 * becomes an HttpFailure carrying the server's error code and message.
 */

export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpFailure';
  }
}

async function call<T>(
  method: string,
  url: string,
  schema: z.ZodType<T>,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: {} };
  if (signal) init.signal = signal;
  if (body instanceof Blob) {
    // A file goes as it is: a session file is JSON lines.
    init.body = body;
    init.headers = { 'content-type': 'application/x-ndjson' };
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    // Reported below as an unreadable answer.
  }
  if (!response.ok) {
    const error = HttpErrorSchema.safeParse(json);
    if (error.success)
      throw new HttpFailure(response.status, error.data.error.code, error.data.error.message);
    throw new HttpFailure(response.status, 'internal', `The server answered ${response.status}.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new HttpFailure(response.status, 'bad_frame', `Unexpected answer from ${url}.`);
  return parsed.data;
}

const Anything = z.unknown();

export function getMe(): Promise<Me> {
  return call('GET', '/api/me', MeSchema);
}

export function login(token: string): Promise<Me> {
  return call('POST', '/api/login', MeSchema, { token });
}

export async function logout(): Promise<void> {
  await call('POST', '/api/logout', Anything, {});
}

export async function listWorkspaces(): Promise<WorkspaceInfo[]> {
  return (await call('GET', '/api/workspaces', WorkspaceListSchema)).workspaces;
}

export async function listSessions(workspaceId: string): Promise<SessionListItem[]> {
  const url = `/api/workspaces/${encodeURIComponent(workspaceId)}/sessions`;
  return (await call('GET', url, SessionListSchema)).sessions;
}

/** Every message of every session of the workspace; `signal` stops the search on the server too. */
export function searchSessions(
  workspaceId: string,
  query: string,
  signal: AbortSignal,
): Promise<SearchAnswer> {
  const url = `/api/workspaces/${encodeURIComponent(workspaceId)}/search?q=${encodeURIComponent(query.trim())}`;
  return call('GET', url, SearchAnswerSchema, undefined, signal);
}

export async function renameSession(sessionId: string, name: string): Promise<void> {
  await call('PATCH', `/api/sessions/${encodeURIComponent(sessionId)}`, Anything, { name });
}

/** Moves a session to the trash; answers its name there, for `restoreSession`. */
export async function deleteSession(sessionId: string): Promise<string> {
  const url = `/api/sessions/${encodeURIComponent(sessionId)}`;
  return (await call('DELETE', url, DeletedSchema)).trashed;
}

/** Moves a session back from the trash; answers its id. */
export async function restoreSession(workspaceId: string, trashed: string): Promise<string> {
  const url = `/api/workspaces/${encodeURIComponent(workspaceId)}/trash/${encodeURIComponent(trashed)}/restore`;
  return (await call('POST', url, RestoredSchema)).sessionId;
}

const DeletedSchema = z.object({ trashed: z.string() });
const RestoredSchema = z.object({ sessionId: z.string() });

export async function listShares(sessionId: string): Promise<ShareLink[]> {
  const url = `/api/sessions/${encodeURIComponent(sessionId)}/shares`;
  return (await call('GET', url, ShareListSchema)).shares;
}

/** A new link to the session, pinned to `leafId` (the entry the page shows). */
export function createShare(sessionId: string, leafId: string | null): Promise<ShareLink> {
  const url = `/api/sessions/${encodeURIComponent(sessionId)}/shares`;
  return call('POST', url, ShareLinkSchema, { leafId });
}

export async function revokeShare(token: string): Promise<void> {
  await call('DELETE', `/api/shares/${encodeURIComponent(token)}`, Anything);
}

/** Models in use whose provider, id or name holds every word of `query`, from the whole catalog. */
export function searchModels(
  query: string,
  limit: number,
  signal: AbortSignal,
): Promise<ModelList> {
  const url = `/api/models?q=${encodeURIComponent(query.trim())}&limit=${limit}`;
  return call('GET', url, ModelListSchema, undefined, signal);
}

/** Imports a pi session file into the workspace; answers the new session's id and the file's own when it was taken. */
export async function importSession(
  workspaceId: string,
  file: Blob,
): Promise<{ sessionId: string; replacedId?: string }> {
  const url = `/api/workspaces/${encodeURIComponent(workspaceId)}/import`;
  const answer = await call('POST', url, ImportAnswerSchema, file);
  return {
    sessionId: answer.session.id,
    ...(answer.replacedId !== undefined ? { replacedId: answer.replacedId } : {}),
  };
}

/** An admin's view of the providers and where their keys come from. */
export function listProviders(): Promise<ProviderList> {
  return call('GET', '/api/providers', ProviderListSchema);
}

/** Saves (a key) or removes (null) a provider's API key in pi's auth.json; admins only. */
export async function setProviderKey(provider: string, key: string | null): Promise<void> {
  const url = `/api/providers/${encodeURIComponent(provider)}/key`;
  await call(key === null ? 'DELETE' : 'PUT', url, Anything, key === null ? undefined : { key });
}

/** pi's `enabledModels` patterns, null when every model is in use. */
export function getEnabledModels(): Promise<EnabledModels> {
  return call('GET', '/api/models/enabled', EnabledModelsSchema);
}

/** Chooses the models in use (null: every model); answers how many that is. */
export function setEnabledModels(patterns: string[] | null): Promise<{ models: number }> {
  return call('PUT', '/api/models/enabled', EnabledModelsSchema.extend({ models: z.number() }), {
    patterns,
  });
}

/** The models this user chose lately, newest first (kept on the server). */
export function recentModels(signal?: AbortSignal): Promise<ModelList> {
  return call('GET', '/api/models/recent', ModelListSchema, undefined, signal);
}
