import { randomBytes } from 'node:crypto';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import { MAX_FRAME_BYTES, PROTOCOL_VERSION, type ErrorBody } from '../../shared/protocol.js';
import { type Health } from '../../shared/rest-shapes.js';
import { LoginSessions } from '../auth/login-sessions.js';
import { SessionOwners } from '../auth/session-owners.js';
import { UserStore } from '../auth/user-store.js';
import { ConfigError, isLoopbackHost, type ArborConfig } from '../config/load-config.js';
import { hasBwrap, toolPolicyFor } from '../tools/tool-policy.js';
import type { DemoModelOptions } from '../demo-model/demo-model-handler.js';
import { demoModelPlugin } from '../demo-model/demo-model-server.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER } from '../models/demo-model-entry.js';
import { demoAdmission } from './demo-access.js';
import { CloseCode } from '../../shared/protocol.js';
import type { ClientConnection } from '../hub/client-connection.js';
import { RateLimiter } from '../hub/rate-limiter.js';
import { SessionHub } from '../hub/session-hub.js';
import { createSessionFactory } from './session-factory.js';
import { SessionLocator } from '../config/session-locator.js';
import { AUTH_FILE, ModelCatalog } from '../models/model-catalog.js';
import { AuthFile } from '../models/auth-file.js';
import { RecentModels } from '../models/recent-models.js';
import { modelRoutes } from './routes/model-routes.js';
import { providerKeyRoutes } from './routes/provider-key-routes.js';
import { acquireDataDirLock } from '../store/file-lock.js';
import { installAuthHooks, markRoutesPublic } from './auth-hooks.js';
import { ArborError } from '../errors/error-catalog.js';
import { installErrorHandler } from './error-handler.js';
import { packageRoot, packageVersion } from './package-info.js';
import { authRoutes } from './routes/auth-routes.js';
import { exportRoutes } from './routes/export-routes.js';
import {
  DEFAULT_EXPORT_LIMITS,
  SessionExporter,
  type ExportLimits,
} from '../export/export-runner.js';
import { shareRoutes } from './routes/share-routes.js';
import { ShareLinks } from '../auth/share-links.js';
import { searchRoutes } from './routes/search-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { workspaceRoutes } from './routes/workspace-routes.js';
import { securityHeaders } from './security-headers.js';
import { RequestsAtDebug, serverLoggerOptions } from './server-log.js';
import { staticWeb } from './static-web.js';
import { WEBSOCKET_OPTIONS, wsRoute } from './ws-route.js';

export interface BuildAppOptions {
  config: ArborConfig;
  /** Fastify's logger option; default: pino at `config.logLevel`, in `config.logFormat`. */
  logger?: FastifyServerOptions['logger'];
  /** The models sessions may use; default: `<dataDir>/models.json` + the demo model at this server's `/demo/v1`. */
  catalog?: ModelCatalog;
  /** The built page; default `<package>/dist/web`; `null` serves no page. */
  webRoot?: string | null;
  /** Options of the demo model mounted at `/demo/v1`; `false` mounts none. */
  demoModel?: DemoModelOptions | false;
  /** Limits of HTML exports; default DEFAULT_EXPORT_LIMITS. */
  exportLimits?: Partial<ExportLimits>;
}

/** The services behind the routes, for the CLI, tests and benchmarks. */
export interface ArborServices {
  config: ArborConfig;
  hub: SessionHub;
  locator: SessionLocator;
  users: UserStore;
  owners: SessionOwners;
  logins: LoginSessions;
  connections: Set<ClientConnection>;
  authRequired(): boolean;
  catalog(): ModelCatalog;
  version: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    arbor: ArborServices;
  }
}

const NO_USERS_MESSAGE = (host: string) =>
  `Arbor is set to listen on ${host}, which other machines can reach, and no users exist. ` +
  'An agent server without login lets anyone who reaches it run commands on this machine. ' +
  'Add a user with `arbor user add NAME --role admin` (it prints a login token), ' +
  'or listen on 127.0.0.1 (`--host 127.0.0.1`).';

/**
 * Builds the app holding the data folder's server lock (DataDirLockedError while another server
 * runs on it), released when the app closes: one server per data folder (decision 053).
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const dataLock = await acquireDataDirLock(options.config.dataDir);
  try {
    const app = await buildAppOnLockedDataDir(options);
    app.addHook('onClose', async () => dataLock?.release());
    return app;
  } catch (error) {
    dataLock?.release();
    throw error;
  }
}

/**
 * Builds Arbor's Fastify app without listening. Plugins and routes are registered in a fixed
 * order: logging, cookies, auth hooks, rate limits, REST routes, WebSocket route, page, demo model.
 * Throws ConfigError when the host is reachable from other machines and no users exist.
 */
async function buildAppOnLockedDataDir(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const users = new UserStore(config.dataDir);
  const loopback = isLoopbackHost(config.host);
  if (!loopback && !users.hasUsers()) throw new ConfigError(NO_USERS_MESSAGE(config.host));
  const authRequired = () => !loopback || users.hasUsers();
  const logins = new LoginSessions(config.dataDir);
  const owners = new SessionOwners(config.dataDir);
  const version = packageVersion();

  const app = Fastify({
    logger: options.logger ?? serverLoggerOptions(config),
    // Requests are logged at debug only (decision 071).
    logController: new RequestsAtDebug(),
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    // request.ip (the login rate limit's key, the logs) is the client behind a trusted proxy.
    trustProxy: config.trustProxy,
    // Half-open and idle sockets must not pile up (docs/decisions/052-request-guards.md):
    // a request head within headersTimeoutMs, checked at least once a second; a whole request
    // within 5 minutes (a big import on a slow link); idle keep-alive sockets closed after 5 s
    // (72 s behind a trusted proxy, longer than a proxy's usual 60 s, so that it never sends on a
    // socket Arbor is closing); any socket silent for a minute closed. Upgraded WebSockets leave
    // these timers behind.
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    requestTimeout: Math.max(300_000, config.headersTimeoutMs),
    keepAliveTimeout: config.trustProxy === false ? 5_000 : 72_000,
    connectionTimeout: 60_000,
    // The router's own refusals (a malformed URL, a path part over 100 characters) answer in
    // Arbor's error shape like every other route.
    frameworkErrors: (error, _request, reply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A part of the URL is longer than 100 characters; no Arbor id or name is.'
          : 'The URL is not valid.';
      const body: { error: ErrorBody } = { error: { code: 'invalid_argument', message } };
      void (reply as unknown as FastifyReply).code(400).send(body);
    },
  });

  // Connections past the cap are closed by Node as soon as they are accepted.
  app.server.maxConnections = config.maxConnections;

  let catalog = options.catalog;
  // pi's auth.json: one reader for the catalog's keys and subscriptions and the admin's key routes.
  const auth = new AuthFile(path.join(config.dataDir, AUTH_FILE));
  // The key this server's sessions send its demo model: in team mode nobody else may call it
  // without signing in (demo-access.ts).
  const demoApiKey = randomBytes(24).toString('base64url');
  const loadCatalog = (demoBaseUrl: string) =>
    ModelCatalog.load({
      dataDir: config.dataDir,
      demoBaseUrl,
      demoApiKey,
      auth,
      ...(options.demoModel && options.demoModel.contextWindow !== undefined
        ? { demoContextWindow: options.demoModel.contextWindow }
        : {}),
    });
  const hostForUrl = (host: string) =>
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let demoBaseUrl = `http://${hostForUrl(config.host)}:${config.port}/demo/v1`;
  // An admin's change of the models in use (settings.json) takes effect at once.
  const reloadCatalog = options.catalog
    ? undefined
    : () => {
        catalog = loadCatalog(demoBaseUrl);
        modelsChanged();
      };
  if (!catalog) {
    // Checks models.json at start; the demo URL is fixed once the real port is known.
    catalog = loadCatalog(demoBaseUrl);
    for (const { provider, modelId, reason } of catalog.unsupported()) {
      const what = modelId
        ? `model "${modelId}" of provider "${provider}"`
        : `provider "${provider}"`;
      app.log.warn(`models.json: Arbor cannot use ${what}: it ${reason}`);
    }
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (address && typeof address === 'object') {
        demoBaseUrl = `http://${hostForUrl(config.host)}:${address.port}/demo/v1`;
        catalog = loadCatalog(demoBaseUrl);
      }
    });
  }
  const currentCatalog = () => catalog as ModelCatalog;

  const locator = new SessionLocator(config.dataDir, config.workspaces, config.sessionDir);
  for (const warning of config.warnings) app.log.warn(warning);
  const bwrap = hasBwrap();
  const sessions = createSessionFactory({
    catalog: currentCatalog,
    toolPolicy: () =>
      toolPolicyFor({
        teamMode: authRequired(),
        allowUnsandboxedBash: config.allowUnsandboxedBash,
        bwrapAvailable: bwrap,
        dataDir: config.dataDir,
        ...(config.sessionDir !== undefined ? { sessionDir: config.sessionDir } : {}),
        workspaces: config.workspaces.map((workspace) => workspace.path),
      }),
    sessionDir: (workspace) => locator.sessionDir(workspace),
    dataDir: config.dataDir,
    teamMode: authRequired,
    snapshots: config.file.snapshots === true,
    compactionSettings: {
      ...(config.file.compaction !== undefined ? { compaction: config.file.compaction } : {}),
      ...(config.file.branchSummary !== undefined
        ? { branchSummary: config.file.branchSummary }
        : {}),
    },
    log: app.log,
  });
  const hub = new SessionHub({
    locator,
    catalog: currentCatalog,
    sessions,
    coalesceMs: config.coalesceMs,
    replayEvents: config.replayEvents,
    idleSessionMs: config.idleSessionMs,
    log: app.log,
    recentModels: new RecentModels(config.dataDir),
  });
  const connections = new Set<ClientConnection>();
  /** Open pages and live sessions see a change of the models or keys at once. */
  const modelsChanged = () => {
    hub.catalogChanged();
    for (const connection of connections) connection.resendSnapshots();
  };
  app.decorate('arbor', {
    config,
    hub,
    locator,
    users,
    owners,
    logins,
    connections,
    authRequired,
    catalog: currentCatalog,
    version,
  } satisfies ArborServices);

  installErrorHandler(app);
  await securityHeaders(app);
  await app.register(fastifyCookie);
  // Registered before the auth hooks so that its own onRequest hook marks upgrade requests even
  // when ours refuses them; it then destroys a refused upgrade's socket.
  await app.register(fastifyWebsocket, {
    options: WEBSOCKET_OPTIONS,
    // Shutdown: runs are aborted and persisted (clients see their last events), then every
    // socket is closed with 1001.
    preClose: async () => {
      await hub.shutdown();
      await owners.flush().catch((error: unknown) => {
        app.log.error({ err: error }, 'the owners file could not be written');
      });
      for (const connection of connections) {
        connection.close(CloseCode.goingAway, 'server shutting down');
      }
      await new Promise<void>((resolve) => app.websocketServer.close(() => resolve()));
    },
  });
  installAuthHooks(app, { users, logins, authRequired, allowedOrigins: config.allowedOrigins });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => new ArborError('rate_limited'),
  });

  app.get('/api/health', { config: { public: true } }, async (): Promise<Health> => ({
    ok: true,
    version,
    protocolVersion: PROTOCOL_VERSION,
  }));
  await app.register(async (scope) =>
    authRoutes(scope, { users, logins, authRequired, loginsPerMinute: config.loginsPerMinute }),
  );
  await app.register(async (scope) =>
    workspaceRoutes(scope, { dataDir: config.dataDir, locator, owners }),
  );
  await app.register(async (scope) =>
    searchRoutes(scope, { dataDir: config.dataDir, locator, owners }),
  );
  await app.register(async (scope) =>
    sessionRoutes(scope, { dataDir: config.dataDir, hub, locator, owners }),
  );
  const exporter = new SessionExporter({ ...DEFAULT_EXPORT_LIMITS, ...options.exportLimits });
  app.addHook('onClose', () => exporter.close());
  await app.register(async (scope) => exportRoutes(scope, { locator, exporter }));
  await app.register(async (scope) =>
    providerKeyRoutes(scope, { auth, catalog: currentCatalog, onChange: modelsChanged }),
  );
  await app.register(async (scope) =>
    modelRoutes(scope, { hub, dataDir: config.dataDir, catalog: currentCatalog, reloadCatalog }),
  );
  const shares = new ShareLinks(config.dataDir);
  await app.register(async (scope) => shareRoutes(scope, { shares, locator, owners }));

  await app.register(async (scope) =>
    wsRoute(scope, {
      hub,
      owners,
      users,
      logins,
      authRequired,
      promptLimiter: new RateLimiter(config.promptsPerMinute),
      connections,
      version,
      maxFrameBytes: MAX_FRAME_BYTES,
      bufferLimitBytes: config.clientBufferLimitBytes,
    }),
  );

  await staticWeb(
    app,
    options.webRoot === undefined ? path.join(packageRoot(), 'dist', 'web') : options.webRoot,
  );
  if (options.demoModel !== false) {
    const demoOptions = {
      ...(options.demoModel ?? {}),
      prefix: '/demo/v1',
      admit: demoAdmission(() =>
        currentCatalog().apiKeyFor({ provider: DEMO_PROVIDER, id: DEMO_MODEL_ID }),
      ),
    };
    await app.register(async (scope) => {
      markRoutesPublic(scope);
      await scope.register(demoModelPlugin, demoOptions);
    });
  }
  return app;
}
