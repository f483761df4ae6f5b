import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserSummary } from '../../shared/protocol.js';
import { LOGIN_COOKIE, type LoginSessions } from '../auth/login-sessions.js';
import type { StoredUser, UserStore } from '../auth/user-store.js';
import { ArborError } from '../errors/error-catalog.js';
import { hostAllowedWithoutLogin, originAllowed, refusedHostMessage } from './origin-check.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, resolved before any handler runs; undefined when not logged in. */
    user: UserSummary | undefined;
    /** The caller's stable user id (user-store.ts); undefined when not logged in or in local mode. */
    userId: string | undefined;
  }
  interface FastifyContextConfig {
    /** The route answers without a login (health, login, me, the page, the demo model). */
    public?: boolean;
  }
}

/** The implicit user when Arbor runs on loopback without users. */
export const LOCAL_USER: UserSummary = { name: 'local', role: 'admin' };

export interface AuthDeps {
  users: UserStore;
  logins: LoginSessions;
  /** True when login is needed (any non-loopback host, or once users exist). */
  authRequired: () => boolean;
  allowedOrigins: string[];
}

/**
 * Marks every route registered in `scope` (and its children) as public, for plugins that register
 * their own routes: the built page and the demo model (the agent calls it without a cookie).
 */
export function markRoutesPublic(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
  });
}

/** The user behind a request's login cookie, if any; LOCAL_USER when no login is needed. */
export function resolveUser(
  request: FastifyRequest,
  deps: AuthDeps,
): UserSummary | StoredUser | undefined {
  if (!deps.authRequired()) return LOCAL_USER;
  return deps.logins.userFor(request.cookies[LOGIN_COOKIE], deps.users);
}

function refuseHost(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const message = refusedHostMessage(request.headers.host);
  if (request.headers.accept?.includes('text/html')) {
    const escaped = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    return reply
      .code(421)
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Arbor: wrong host name</title>` +
          `<h1>Arbor does not answer to this host name</h1><p>${escaped}</p>\n`,
      );
  }
  return reply.code(421).send({ error: { code: 'forbidden', message } });
}

/**
 * Installs, at the root of the app, the checks every request passes, in this order:
 * - without login (loopback, no users), the Host must be a loopback name or an allowed origin's
 *   host, so a DNS-rebinding page cannot act as the local admin (421 otherwise);
 * - state-changing calls and the WebSocket upgrade must come from an allowed Origin;
 * - who the caller is, and that they have logged in unless the route the router matched is marked
 *   public (`config: { public: true }`).
 *
 * The last check runs in onRequest, which Fastify runs after routing: it decides on the route that
 * will answer, never on the raw URL, so `/%61pi/...`, `//api/...` or `/API/...` cannot pass as a
 * public path. Every route is private unless marked; a URL that matches no route reaches only the
 * not-found handler (the page, or a 404), which holds no data.
 */
export function installAuthHooks(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('user', undefined);
  app.decorateRequest('userId', undefined);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (
      !deps.authRequired() &&
      !hostAllowedWithoutLogin(request.headers.host, deps.allowedOrigins)
    ) {
      return refuseHost(request, reply);
    }
    const isUpgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
    if ((request.method !== 'GET' && request.method !== 'HEAD') || isUpgrade) {
      if (!originAllowed(request, deps.allowedOrigins)) {
        throw new ArborError('forbidden', 'This origin may not use this server.');
      }
    }
    const user = resolveUser(request, deps);
    request.user = user ? { name: user.name, role: user.role } : undefined;
    request.userId = user && 'id' in user ? user.id : undefined;
    if (!request.user && request.routeOptions.config.public !== true && !request.is404) {
      throw new ArborError('unauthorized');
    }
  });
}
