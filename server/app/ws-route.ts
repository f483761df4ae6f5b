import type { FastifyInstance } from 'fastify';
import { WS_PATH, type UserSummary } from '../../shared/protocol.js';
import { LOGIN_COOKIE, type LoginSessions } from '../auth/login-sessions.js';
import type { SessionOwners } from '../auth/session-owners.js';
import type { UserStore } from '../auth/user-store.js';
import { ClientConnection } from '../hub/client-connection.js';
import type { RateLimiter } from '../hub/rate-limiter.js';
import type { SessionHub } from '../hub/session-hub.js';
import { LOCAL_USER } from './auth-hooks.js';

export interface WsRouteDeps {
  hub: SessionHub;
  owners: SessionOwners;
  users: UserStore;
  logins: LoginSessions;
  authRequired: () => boolean;
  promptLimiter: RateLimiter;
  connections: Set<ClientConnection>;
  version: string;
  maxFrameBytes: number;
  bufferLimitBytes: number;
}

/**
 * `GET /api/ws`: one WebSocket per browser tab. The Origin and the login were checked by the
 * root hooks before the upgrade; the connection re-checks the login on every command, so logout
 * or `arbor user remove` ends it.
 */
export async function wsRoute(app: FastifyInstance, deps: WsRouteDeps): Promise<void> {
  app.get(WS_PATH, { websocket: true }, (socket, request) => {
    const name = request.user?.name;
    const cookie = request.cookies[LOGIN_COOKIE];
    const currentUser = (): UserSummary | undefined => {
      if (!deps.authRequired()) return LOCAL_USER;
      if (name === undefined || deps.logins.lookup(cookie) !== name) return undefined;
      return deps.users.get(name);
    };
    // ClientConnection attaches its message listener synchronously, before any await.
    const connection = new ClientConnection(socket, {
      hub: deps.hub,
      owners: deps.owners,
      promptLimiter: deps.promptLimiter,
      currentUser,
      authRequired: deps.authRequired(),
      serverVersion: deps.version,
      maxFrameBytes: deps.maxFrameBytes,
      bufferLimitBytes: deps.bufferLimitBytes,
      log: request.log,
    });
    deps.connections.add(connection);
    socket.on('close', () => deps.connections.delete(connection));
  });
}
