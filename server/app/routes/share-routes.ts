import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mayManageShares } from '../../../shared/authorisation.js';
import { SessionIdSchema } from '../../../shared/protocol.js';
import type { SessionOwners } from '../../auth/session-owners.js';
import type { Share, ShareLinks } from '../../auth/share-links.js';
import type { SessionLocator } from '../../config/session-locator.js';
import { ArborError } from '../../errors/error-catalog.js';
import { SessionStore } from '../../store/session-store.js';

export interface ShareRouteDeps {
  shares: ShareLinks;
  locator: SessionLocator;
  owners: SessionOwners;
}

const SessionParams = z.object({ id: SessionIdSchema });
const TokenParams = z.object({ token: z.string().max(100) });
const CreateBody = z.object({ leafId: z.string().max(200).nullable().optional() }).optional();

/** A share as the page lists it: its link, what it pins, who made it, whether the caller may revoke. */
function shareView(share: Share, mayRevoke: boolean) {
  return {
    token: share.token,
    url: `/share/${share.token}`,
    leafId: share.leafId,
    createdBy: share.createdBy,
    createdAt: share.createdAt,
    mayRevoke,
  };
}

function notFoundPage(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .type('text/html; charset=utf-8')
    .send(
      '<!doctype html><meta charset="utf-8"><title>Arbor: no such share link</title>' +
        '<h1>This share link does not exist</h1>' +
        '<p>It may have been revoked, or its session deleted. Ask whoever sent it for a new one.</p>' +
        '<p><a href="/">Open Arbor</a></p>\n',
    );
}

/**
 * Share links: a member or admin who may write a session makes a link pinned to it and to an entry;
 * any user of the instance who opens it is sent, once logged in, to the read-only reading of that
 * entry's path. A link grants nothing: the reader's own role decides what else they may do.
 */
export async function shareRoutes(app: FastifyInstance, deps: ShareRouteDeps) {
  const session = (request: FastifyRequest) => {
    const parsed = SessionParams.safeParse(request.params);
    const location = parsed.success ? deps.locator.locate(parsed.data.id) : undefined;
    if (!parsed.success || !location) throw new ArborError('not_found', 'No such session.');
    return {
      sessionId: parsed.data.id,
      file: location.file,
      owner: deps.owners.ownerOf(parsed.data.id),
    };
  };

  app.get('/api/sessions/:id/shares', async (request) => {
    const { sessionId, owner } = session(request);
    const may = request.user ? mayManageShares(request.user, owner) : false;
    return { shares: deps.shares.forSession(sessionId).map((share) => shareView(share, may)) };
  });

  app.post('/api/sessions/:id/shares', async (request) => {
    const { sessionId, file, owner } = session(request);
    const user = request.user;
    if (!user || !mayManageShares(user, owner)) {
      throw new ArborError('forbidden', 'Only those who may write this session may share it.');
    }
    const body = CreateBody.safeParse(request.body);
    if (!body.success) throw new ArborError('invalid_argument', 'Send {"leafId": "..."} or {}.');
    const store = SessionStore.openReadOnly(file);
    let leafId: string | null;
    try {
      leafId = body.data?.leafId === undefined ? store.getLeafId() : body.data.leafId;
      if (leafId !== null && !store.getNode(leafId)) {
        throw new ArborError('not_found', 'The session has no such entry.');
      }
    } finally {
      store.close();
    }
    return shareView(deps.shares.create(sessionId, leafId, user.name), true);
  });

  app.delete('/api/shares/:token', async (request) => {
    const params = TokenParams.safeParse(request.params);
    const share = params.success ? deps.shares.find(params.data.token) : undefined;
    if (!share) throw new ArborError('not_found', 'No such share link.');
    if (!request.user || !mayManageShares(request.user, deps.owners.ownerOf(share.sessionId))) {
      throw new ArborError(
        'forbidden',
        'Only those who may write this session may revoke its links.',
      );
    }
    deps.shares.revoke(share.token);
    return { ok: true };
  });

  /**
   * The link itself. Public so that a logged-out visitor is sent to log in first (and learns
   * nothing about the token); then to the session's read-only reading at the pinned entry.
   */
  app.get('/share/:token', { config: { public: true } }, async (request, reply) => {
    const params = TokenParams.safeParse(request.params);
    const token = params.success ? params.data.token : '';
    if (!request.user) return reply.redirect(`/?share=${encodeURIComponent(token)}`);
    const share = deps.shares.find(token);
    if (!share || !deps.locator.locate(share.sessionId)) return notFoundPage(reply);
    const target = new URLSearchParams({ session: share.sessionId });
    if (share.leafId !== null) target.set('read', share.leafId);
    return reply.redirect(`/?${target.toString()}`);
  });
}
