import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SessionIdSchema } from '../../../shared/protocol.js';
import { RenameRequestSchema } from '../../../shared/rest-shapes.js';
import {
  mayAccess,
  sessionPermissions,
  type SessionPermissions,
} from '../../auth/authorisation.js';
import type { SessionOwners } from '../../auth/session-owners.js';
import type { SessionHub } from '../../hub/session-hub.js';
import type { SessionLocation, SessionLocator } from '../../config/session-locator.js';
import { openRegularFile } from '../../store/regular-file.js';
import { sessionIdOfFile } from '../../store/session-header-id.js';
import {
  moveToTrash,
  restoreFromTrash,
  sessionIdOnDisk,
  trashDir,
  trashRecordOf,
} from '../../store/session-trash.js';
import { ArborError } from '../../errors/error-catalog.js';

export interface SessionRouteDeps {
  dataDir: string;
  hub: SessionHub;
  locator: SessionLocator;
  owners: SessionOwners;
}

const SessionParams = z.object({ id: SessionIdSchema });

/** A file name in a workspace's trash: a session file, maybe numbered; never a path. */
const TrashParams = z.object({
  workspaceId: z.string().min(1).max(200),
  name: z
    .string()
    .max(300)
    .regex(/^[\w-][\w.-]*\.jsonl(\.\d+)?$/),
});

/** What a route needs: to read the session, or one of the list's actions on it. */
type RouteAccess = 'read' | keyof SessionPermissions;

const FORBIDDEN_MESSAGE = 'Only the owner of this session or an admin may do this.';

/** Whether `user` may do `access` to a session owned by `owner`, by the shared rules. */
function mayDo(request: FastifyRequest, owner: string | null, access: RouteAccess): boolean {
  const user = request.user;
  if (!user) return false;
  return access === 'read'
    ? mayAccess(user, owner, 'read')
    : sessionPermissions(user, owner)[access];
}

/**
 * The session named in the URL, checked against the caller. Ids that are not session ids (paths,
 * `..`) and ids outside the configured workspaces are answered 404, like unknown ones.
 */
function authorisedSession(
  deps: SessionRouteDeps,
  request: FastifyRequest,
  access: RouteAccess,
): { sessionId: string; location: SessionLocation } {
  const parsed = SessionParams.safeParse(request.params);
  const location = parsed.success ? deps.locator.locate(parsed.data.id) : undefined;
  if (!parsed.success || !location) throw new ArborError('not_found', 'No such session.');
  if (!mayDo(request, deps.owners.ownerOf(parsed.data.id), access)) {
    throw new ArborError('forbidden', FORBIDDEN_MESSAGE);
  }
  return { sessionId: parsed.data.id, location };
}

/** Download, rename and delete (to the trash) of one session. */
export async function sessionRoutes(app: FastifyInstance, deps: SessionRouteDeps) {
  app.get('/api/sessions/:id/download', async (request, reply) => {
    const { location } = authorisedSession(deps, request, 'read');
    const name = path.basename(location.file);
    const file = await openRegularFile(location.file);
    return reply
      .type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(file.createReadStream());
  });

  app.patch('/api/sessions/:id', async (request) => {
    const { sessionId } = authorisedSession(deps, request, 'rename');
    const body = RenameRequestSchema.safeParse(request.body);
    if (!body.success) {
      throw new ArborError('invalid_argument', 'Send {"name": "..."} (1 to 200 characters).');
    }
    const live = await deps.hub.open(sessionId);
    live.agent.setSessionName(body.data.name);
    return { ok: true };
  });

  /**
   * Moves the file to `<dataDir>/trash/<workspaceId>/` and answers its name there, which the
   * restore below takes (moving the file back by hand works as well).
   */
  app.delete('/api/sessions/:id', async (request) => {
    const { sessionId, location } = authorisedSession(deps, request, 'delete');
    await deps.hub.close(sessionId, 'deleted');
    const trashed = moveToTrash(deps.dataDir, location.workspace.id, location.file, {
      sessionId,
      owner: deps.owners.ownerOf(sessionId),
      deletedBy: request.user?.name ?? 'unknown',
    });
    deps.locator.forget(sessionId);
    return { ok: true, trashed };
  });

  /**
   * Moves a deleted session back from the trash, under the name it had. The owner checked is the
   * one recorded for this very file when it was deleted; a file without a record (put there by
   * hand) falls back to the owner of its id, and one with an unreadable record to admins only.
   */
  app.post('/api/workspaces/:workspaceId/trash/:name/restore', async (request) => {
    const params = TrashParams.safeParse(request.params);
    const workspace = params.success ? deps.locator.workspace(params.data.workspaceId) : undefined;
    if (!params.success || !workspace) throw new ArborError('not_found', 'Not in the trash.');
    const { name } = params.data;
    const original = name.replace(/\.jsonl\.\d+$/, '.jsonl');
    const file = path.join(trashDir(deps.dataDir, workspace.id), name);
    const sessionId = fs.existsSync(file) ? sessionIdOfFile(file) : undefined;
    if (!sessionId) throw new ArborError('not_found', 'Not in the trash.');
    const record = trashRecordOf(file);
    const owner =
      record === undefined
        ? deps.owners.ownerOf(sessionId)
        : record === 'unreadable' || record.sessionId !== sessionId
          ? null
          : record.owner;
    // Undoing a delete needs what the delete needed.
    if (!mayDo(request, owner, 'delete')) throw new ArborError('forbidden', FORBIDDEN_MESSAGE);
    const target = path.join(deps.locator.sessionDir(workspace), original);
    if (
      fs.existsSync(target) ||
      deps.locator.idInSessionFolders(sessionId) ||
      sessionIdOnDisk(deps.dataDir, sessionId, ['sessions'])
    ) {
      throw new ArborError('conflict', 'A session with this id is already in a workspace.');
    }
    restoreFromTrash(file, target);
    if (owner !== null) deps.owners.setOwner(sessionId, owner);
    deps.locator.register(sessionId, target, workspace);
    return { ok: true, sessionId };
  });
}
