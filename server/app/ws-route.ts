import type { FastifyInstance } from 'fastify';
import { CloseCode, WS_PATH, type UserSummary } from '../../shared/protocol.js';
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
 * `GET /api/ws`: one WebSocket per browser tab. The Host, the Origin and the login were checked by
 * the root hooks before the upgrade. The connection is bound to the user id it was opened with and
 * re-checks the login on every command; besides, whenever users.json changes (`arbor user remove`,
 * a role change, the first user added to a local server), every connection whose user is gone is
 * closed with 4001 and every one whose role changed with 1001 (the page reconnects with its new
 * role), so nobody keeps receiving events they may no longer see.
 */
export async function wsRoute(app: FastifyInstance, deps: WsRouteDeps): Promise<void> {
  const open = new Map<
    ClientConnection,
    { currentUser: () => UserSummary | undefined; role: string; local: boolean }
  >();

  const recheck = () => {
    for (const [connection, { currentUser, role, local }] of open) {
      let user: UserSummary | undefined;
      try {
        user = currentUser();
      } catch (error) {
        // A users.json that cannot be read lets nobody act; the connection ends like a removal.
        app.log.error({ err: error }, 'users file unreadable; closing a connection');
        user = undefined;
      }
      if (!user)
        connection.close(CloseCode.unauthorized, local ? 'login required' : 'user removed');
      else if (user.role !== role) connection.close(CloseCode.goingAway, 'role changed');
    }
  };
  const stopWatching = deps.users.watch(recheck);
  app.addHook('onClose', async () => stopWatching());

  app.get(WS_PATH, { websocket: true }, (socket, request) => {
    const userId = request.userId;
    const cookie = request.cookies[LOGIN_COOKIE];
    const currentUser = (): UserSummary | undefined => {
      if (!deps.authRequired()) return LOCAL_USER;
      if (userId === undefined) return undefined;
      const user = deps.logins.userFor(cookie, deps.users);
      return user && user.id === userId ? { name: user.name, role: user.role } : undefined;
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
    open.set(connection, {
      currentUser,
      role: request.user?.role ?? LOCAL_USER.role,
      local: userId === undefined,
    });
    socket.on('close', () => {
      deps.connections.delete(connection);
      open.delete(connection);
    });
  });
}
