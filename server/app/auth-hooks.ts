import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserSummary } from '../../shared/protocol.js';
import { LOGIN_COOKIE, type LoginSessions } from '../auth/login-sessions.js';
import type { UserStore } from '../auth/user-store.js';
import { ArborError } from './error-catalog.js';
import { originAllowed } from './origin-check.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, resolved before any handler runs; undefined when not logged in. */
    user: UserSummary | undefined;
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

/** Routes anyone may call: health, login, and the demo model (the agent calls it without a cookie). */
function isPublic(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? url;
  return (
    pathname === '/api/health' ||
    pathname === '/api/login' ||
    pathname === '/api/me' ||
    pathname.startsWith('/demo/') ||
    !pathname.startsWith('/api/')
  );
}

/** The user behind a request's login cookie, if any; LOCAL_USER when no login is needed. */
export function resolveUser(request: FastifyRequest, deps: AuthDeps): UserSummary | undefined {
  if (!deps.authRequired()) return LOCAL_USER;
  const name = deps.logins.lookup(request.cookies[LOGIN_COOKIE]);
  return name === undefined ? undefined : deps.users.get(name);
}

/**
 * Installs, at the root of the app, the checks every request passes: who the caller is, that API
 * routes other than the public ones have a caller, and that state-changing calls and the
 * WebSocket upgrade come from an allowed Origin.
 */
export function installAuthHooks(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('user', undefined);
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    const isUpgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
    if ((request.method !== 'GET' && request.method !== 'HEAD') || isUpgrade) {
      if (!originAllowed(request, deps.allowedOrigins)) {
        throw new ArborError('forbidden', 'This origin may not use this server.');
      }
    }
    request.user = resolveUser(request, deps);
    if (!request.user && !isPublic(request.url)) throw new ArborError('unauthorized');
  });
}
