import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  SessionIdSchema,
  WorkspaceIdSchema,
  type SessionListItem,
  type WorkspaceInfo,
} from '../../../shared/protocol.js';
import { mayAccess } from '../../auth/authorisation.js';
import type { SessionOwners } from '../../auth/session-owners.js';
import type { Workspace } from '../../config/workspaces.js';
import type { SessionLocator } from '../../hub/session-locator.js';
import { listSessions } from '../../store/session-listing.js';
import { sessionFileName } from '../../store/session-paths.js';
import { NotASessionFileError, SessionStore } from '../../store/session-store.js';
import { ArborError } from '../error-catalog.js';
import { matchesQuery, toListItem } from './session-items.js';

export interface WorkspaceRouteDeps {
  dataDir: string;
  locator: SessionLocator;
  owners: SessionOwners;
}

const WorkspaceParams = z.object({ id: WorkspaceIdSchema });
const ListQuery = z.object({ q: z.string().max(200).optional() });
export const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

function workspaceOf(locator: SessionLocator, params: unknown): Workspace {
  const parsed = WorkspaceParams.safeParse(params);
  const workspace = parsed.success ? locator.workspace(parsed.data.id) : undefined;
  if (!workspace) throw new ArborError('not_found', 'No such workspace.');
  return workspace;
}

/** Lists a workspace's sessions, newest first, and registers them with the locator. */
export async function listWorkspaceSessions(
  deps: WorkspaceRouteDeps,
  workspace: Workspace,
): Promise<SessionListItem[]> {
  const infos = await listSessions(deps.locator.sessionDir(workspace));
  return infos.map((info) => {
    deps.locator.register(info.id, info.file, workspace);
    return toListItem(info, workspace, deps.owners);
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
    const sessions = await listWorkspaceSessions(deps, workspace);
    const q = query.data.q?.trim();
    return { sessions: q ? sessions.filter((item) => matchesQuery(item, q)) : sessions };
  });

  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    ['application/x-ndjson', 'application/jsonl', 'application/octet-stream', 'text/plain'],
    { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  /**
   * Imports a session file (JSONL body). It is checked by opening it with the store in a private
   * temp folder; only a file that opens without a bad line is moved into the workspace. Anything
   * else is answered 400 and leaves nothing behind.
   */
  app.post(
    '/api/workspaces/:id/import',
    { bodyLimit: IMPORT_BODY_LIMIT },
    async (request, reply) => {
      const workspace = workspaceOf(deps.locator, request.params);
      if (!request.user || !mayAccess(request.user, null, 'create')) {
        throw new ArborError('forbidden', 'Viewers cannot import sessions.');
      }
      if (typeof request.body !== 'string' || request.body.length === 0) {
        throw new ArborError(
          'invalid_argument',
          'Send the session file as the request body (Content-Type: application/x-ndjson).',
        );
      }
      const tempRoot = path.join(deps.dataDir, 'tmp');
      fs.mkdirSync(tempRoot, { recursive: true });
      const tempDir = fs.mkdtempSync(path.join(tempRoot, 'import-'));
      try {
        const tempFile = path.join(tempDir, 'import.jsonl');
        fs.writeFileSync(tempFile, request.body, { mode: 0o600 });
        const { sessionId, timestamp } = checkImport(tempFile);
        if (deps.locator.locate(sessionId)) {
          throw new ArborError('conflict', `A session with id ${sessionId} already exists.`);
        }
        const dir = deps.locator.sessionDir(workspace);
        fs.mkdirSync(dir, { recursive: true });
        const target = path.join(dir, sessionFileName(timestamp, sessionId));
        if (fs.existsSync(target)) {
          throw new ArborError('conflict', `A session with id ${sessionId} already exists.`);
        }
        fs.renameSync(tempFile, target);
        deps.locator.register(sessionId, target, workspace);
        deps.owners.setOwner(sessionId, request.user.name);
        const item = (await listWorkspaceSessions(deps, workspace)).find((s) => s.id === sessionId);
        return reply
          .code(201)
          .send({ session: item ?? { id: sessionId, workspaceId: workspace.id } });
      } finally {
        fs.rmSync(tempDir, { recursive: true, force: true });
      }
    },
  );
}

function checkImport(file: string): { sessionId: string; timestamp: string } {
  let store: SessionStore;
  try {
    store = SessionStore.openReadOnly(file);
  } catch (error) {
    if (error instanceof NotASessionFileError) {
      throw new ArborError(
        'invalid_argument',
        'Not a session file: the first line must be a session header ({"type":"session",...}).',
      );
    }
    throw new ArborError('invalid_argument', 'The session file could not be read.');
  }
  try {
    const report = store.openReport;
    if (report.badLines.length > 0) {
      const lines = report.badLines.slice(0, 10).join(', ');
      throw new ArborError(
        'invalid_argument',
        `The session file has ${report.badLines.length} line(s) that are not valid entries (line ${lines}${report.badLines.length > 10 ? ', …' : ''}).`,
      );
    }
    if (report.tornTailBytes > 0) {
      throw new ArborError('invalid_argument', 'The session file ends with an incomplete line.');
    }
    const id = SessionIdSchema.safeParse(store.header.id);
    if (!id.success) {
      throw new ArborError('invalid_argument', 'The session header has an id Arbor cannot use.');
    }
    // The timestamp becomes part of a file name: only an ISO-8601 time is trusted for that.
    const stamp = store.header.timestamp;
    const timestamp = /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z$/.test(stamp)
      ? stamp
      : new Date().toISOString();
    return { sessionId: id.data, timestamp };
  } finally {
    store.close();
  }
}
