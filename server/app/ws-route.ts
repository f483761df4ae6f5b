import type { FastifyInstance } from 'fastify';
import type { WebsocketPluginOptions } from '@fastify/websocket';
import { CloseCode, MAX_FRAME_BYTES, WS_PATH, type UserSummary } from '../../shared/protocol.js';
import { LOGIN_COOKIE, type LoginSessions } from '../auth/login-sessions.js';
import type { SessionOwners } from '../auth/session-owners.js';
import type { UserStore } from '../auth/user-store.js';
import { ClientConnection } from '../hub/client-connection.js';
import type { RateLimiter } from '../hub/rate-limiter.js';
import type { SessionHub } from '../hub/session-hub.js';
import { LOCAL_USER } from './auth-hooks.js';

/**
 * Frames at least this big are compressed (permessage-deflate): snapshots and other big answers,
 * where deflate saves most of the bytes. Event frames go out as they are whatever their size
 * (client-connection.ts), so a delta never waits for zlib's thread pool nor queues behind
 * another frame's compression.
 */
export const DEFLATE_THRESHOLD_BYTES = 64 * 1024;

/**
 * `ws`'s options for Arbor's socket. `ws` applies `threshold` only when the server keeps no
 * compression context between messages (`serverNoContextTakeover`: its window is reset after
 * each message); big frames here are independent snapshots and answers, so a shared context
 * would gain little. Level 1 deflates the 20,000-entry skeleton several times faster than zlib's
 * default for a quarter more bytes (bench/ws/tree-on-the-wire.ts): the time is a first paint's,
 * the bytes a millisecond or two of a network. Received frames may take twice the frame limit,
 * so a frame just over it is answered with `payload_too_large` rather than the connection
 * closing (1009).
 */
export const WEBSOCKET_OPTIONS: WebsocketPluginOptions['options'] = {
  maxPayload: 2 * MAX_FRAME_BYTES,
  perMessageDeflate: {
    threshold: DEFLATE_THRESHOLD_BYTES,
    serverNoContextTakeover: true,
    clientNoContextTakeover: true,
    zlibDeflateOptions: { level: 1 },
  },
};

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
