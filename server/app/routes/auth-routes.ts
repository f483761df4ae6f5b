import type { FastifyInstance } from 'fastify';
import { LoginRequestSchema, type Me } from '../../../shared/rest-shapes.js';
import { LOGIN_COOKIE, LOGIN_MAX_AGE_MS, type LoginSessions } from '../../auth/login-sessions.js';
import type { UserStore } from '../../auth/user-store.js';
import { ArborError } from '../../errors/error-catalog.js';

export interface AuthRouteDeps {
  users: UserStore;
  logins: LoginSessions;
  authRequired: () => boolean;
  loginsPerMinute: number;
}

/** `POST /api/login` {token} → login cookie; `POST /api/logout`; `GET /api/me`. */
export async function authRoutes(app: FastifyInstance, deps: AuthRouteDeps): Promise<void> {
  app.post(
    '/api/login',
    {
      bodyLimit: 4096,
      config: { public: true, rateLimit: { max: deps.loginsPerMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const parsed = LoginRequestSchema.safeParse(request.body);
      if (!parsed.success) throw new ArborError('invalid_argument', 'Send {"token": "..."}.');
      if (!deps.authRequired()) {
        throw new ArborError('invalid_argument', 'This server runs without login.');
      }
      const user = await deps.users.verify(parsed.data.token);
      if (!user) throw new ArborError('unauthorized', 'That token is not valid.');
      const secret = deps.logins.create(user);
      reply.setCookie(LOGIN_COOKIE, secret, {
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        path: '/',
        maxAge: Math.floor(LOGIN_MAX_AGE_MS / 1000),
      });
      const me: Me = { user: { name: user.name, role: user.role }, authRequired: true };
      return me;
    },
  );

  app.post('/api/logout', async (request, reply) => {
    deps.logins.end(request.cookies[LOGIN_COOKIE]);
    reply.clearCookie(LOGIN_COOKIE, { path: '/' });
    return { ok: true };
  });

  app.get('/api/me', { config: { public: true } }, async (request) => {
    if (!request.user) throw new ArborError('unauthorized');
    const me: Me = { user: request.user, authRequired: deps.authRequired() };
    return me;
  });
}
