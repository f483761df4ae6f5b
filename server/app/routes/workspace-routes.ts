import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { assertNever } from '../../../shared/agent-events.js';
import { z } from 'zod';
import { SessionIdSchema, WorkspaceIdSchema, type UserSummary } from '../../../shared/protocol.js';
import { type SessionListItem, type WorkspaceInfo } from '../../../shared/rest-shapes.js';
import { mayAccess } from '../../auth/authorisation.js';
import type { SessionOwners } from '../../auth/session-owners.js';
import type { Workspace } from '../../config/workspaces.js';
import type { SessionLocator } from '../../config/session-locator.js';
import { uuidv7 } from '../../store/entry-ids.js';
import { importSessionStream, SessionImportError } from '../../store/session-import.js';
import { sessionIdOnDisk } from '../../store/session-trash.js';
import { ArborError } from '../../errors/error-catalog.js';
import { ImportSlots } from './import-slots.js';
import { matchesQuery, toListItem } from './session-items.js';

export interface WorkspaceRouteDeps {
  dataDir: string;
  locator: SessionLocator;
  owners: SessionOwners;
}

const WorkspaceParams = z.object({ id: WorkspaceIdSchema });
const ListQuery = z.object({ q: z.string().max(200).optional() });
export const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;
/** The longest line an import holds in memory to check it (a 48 MB image fits). */
export const IMPORT_LINE_LIMIT = 64 * 1024 * 1024;
/** Imports that may run at once; further ones are answered 503 with Retry-After. */
export const IMPORT_CONCURRENCY = 2;
const IMPORT_RETRY_AFTER_SECONDS = 5;
const IMPORT_TYPES = [
  'application/x-ndjson',
  'application/jsonl',
  'application/octet-stream',
  'text/plain',
];

export function workspaceOf(locator: SessionLocator, params: unknown): Workspace {
  const parsed = WorkspaceParams.safeParse(params);
  const workspace = parsed.success ? locator.workspace(parsed.data.id) : undefined;
  if (!workspace) throw new ArborError('not_found', 'No such workspace.');
  return workspace;
}

/**
 * Lists a workspace's sessions, newest first, as `user` sees them, and registers them with the
 * locator.
 */
export async function listWorkspaceSessions(
  deps: WorkspaceRouteDeps,
  workspace: Workspace,
  user: UserSummary | undefined,
): Promise<SessionListItem[]> {
  const infos = await deps.locator.list(workspace);
  return infos.map((info) => {
    deps.locator.register(info.id, info.file, workspace);
    return toListItem(info, workspace, deps.owners, user);
  });
}

/** Workspaces, their sessions (with search), and import of a session file. */
export async function workspaceRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps) {
  app.get('/api/workspaces', async () => {
    const workspaces: WorkspaceInfo[] = deps.locator.workspaces.map(({ id, name, path: dir }) => ({
      id,
      name,
      path: dir,
    }));
    return { workspaces };
  });

  app.get('/api/workspaces/:id/sessions', async (request) => {
    const workspace = workspaceOf(deps.locator, request.params);
    const query = ListQuery.safeParse(request.query);
    if (!query.success)
      throw new ArborError('invalid_argument', 'q must be at most 200 characters.');
    const sessions = await listWorkspaceSessions(deps, workspace, request.user);
    const q = query.data.q?.trim();
    return { sessions: q ? sessions.filter((item) => matchesQuery(item, q)) : sessions };
  });

  app.removeContentTypeParser('text/plain');
  // The import body is read as a stream by the route, never buffered whole (decision 055).
  app.addContentTypeParser(IMPORT_TYPES, (_request, payload, done) => done(null, payload));

  const slots = new ImportSlots(IMPORT_CONCURRENCY);
  /** Ids of imports under way, so two uploads of one file cannot both keep its id. */
  const reserved = new Set<string>();
  const idInUse = (id: string) =>
    reserved.has(id) ||
    deps.owners.ownerOf(id) !== null ||
    deps.locator.idInSessionFolders(id) ||
    sessionIdOnDisk(deps.dataDir, id);

  /**
   * Imports a session file (JSONL body), streamed into the workspace's session folder and checked
   * line by line as it arrives; only a file that passes whole is kept, under the header's id when
   * no session anywhere (trash included) has it, else under a fresh one. Anything else is answered
   * 400 (413 when too large) with the line at fault, and leaves nothing behind.
   */
  app.post('/api/workspaces/:id/import', async (request, reply) => {
    const workspace = workspaceOf(deps.locator, request.params);
    if (!request.user || !mayAccess(request.user, null, 'create')) {
      throw new ArborError('forbidden', 'Viewers cannot import sessions.');
    }
    const body = request.body;
    if (!(body instanceof Readable)) {
      throw new ArborError(
        'invalid_argument',
        'Send the session file as the request body (Content-Type: application/x-ndjson).',
      );
    }
    const release = slots.tryAcquire();
    if (!release) {
      return reply
        .code(503)
        .header('retry-after', String(IMPORT_RETRY_AFTER_SECONDS))
        .header('connection', 'close')
        .send({
          error: {
            code: 'unavailable',
            message: `${slots.limit} imports are running already; try again in a few seconds.`,
          },
        });
    }
    let mine: string | undefined;
    try {
      const imported = await importSessionStream(
        body,
        deps.locator.sessionDir(workspace),
        { maxBytes: IMPORT_BODY_LIMIT, maxLineBytes: IMPORT_LINE_LIMIT },
        (headerId) => {
          const keep = SessionIdSchema.safeParse(headerId).success && !idInUse(headerId);
          mine = keep ? headerId : uuidv7();
          reserved.add(mine);
          return mine;
        },
      ).catch((error: unknown) => {
        throw importError(error);
      });
      const { sessionId, file } = imported;
      refuseForeignImport(deps.locator, file, workspace);
      deps.locator.register(sessionId, file, workspace);
      deps.owners.setOwner(sessionId, request.user.name);
      const item = (await listWorkspaceSessions(deps, workspace, request.user)).find(
        (s) => s.id === sessionId,
      );
      return reply.code(201).send({
        session: item ?? { id: sessionId, workspaceId: workspace.id },
        ...(imported.replacedId !== undefined ? { replacedId: imported.replacedId } : {}),
      });
    } finally {
      if (mine !== undefined) reserved.delete(mine);
      release();
    }
  });
}

/**
 * In a shared session folder a session belongs to the workspace its header's cwd names, so an
 * upload recorded in another directory would not be listed here: it is taken out again and
 * refused with what to do (the uploaded file itself is untouched on the user's side).
 */
function refuseForeignImport(locator: SessionLocator, file: string, workspace: Workspace): void {
  const { belongs, cwd } = locator.belongsTo(file, workspace);
  if (belongs) return;
  fs.rmSync(file, { force: true });
  throw new ArborError(
    'invalid_argument',
    `This session was recorded in ${cwd ? `"${cwd}"` : 'no working directory'}. The session folder ` +
      `is shared by every working directory, and a session shows in the workspace its header's ` +
      `"cwd" names, so it would not appear in ${workspace.path}. Import it into the workspace of ` +
      `that directory, or set "cwd" in its first line to "${workspace.path}".`,
  );
}

function importError(error: unknown): unknown {
  if (!(error instanceof SessionImportError)) return error;
  switch (error.kind) {
    case 'invalid':
      return new ArborError('invalid_argument', error.message);
    case 'too_large':
      return new ArborError('payload_too_large', error.message);
    case 'conflict':
      return new ArborError('conflict', error.message);
    default:
      return assertNever(error.kind);
  }
}
