import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { buildApp, type BuildAppOptions } from '../build-app.js';
import { loadConfig, type ArborConfig } from '../../config/load-config.js';
import { UserStore } from '../../auth/user-store.js';
import { injectLoginCookie, loginCookie } from './login-cookie.js';
import { WsTestClient } from './ws-test-client.js';

/*
 * A real Arbor server for tests: temp data and workspace folders, the demo model mounted on the same
 * server, listening on 127.0.0.1 port 0. `close()` shuts it down and removes the folders.
 */

export interface TestServer {
  app: FastifyInstance;
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `ws://127.0.0.1:PORT/api/ws` */
  wsUrl: string;
  dataDir: string;
  workspaceId: string;
  workspacePath: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  config?: Partial<ArborConfig>;
  /** Extra workspace folders (besides the first) to configure. */
  extraWorkspaces?: number;
  /** Prepare the data folder (add users, files) before the app is built. */
  prepare?: (dataDir: string) => Promise<void> | void;
  build?: Partial<BuildAppOptions>;
  listen?: boolean;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-server-'));
  const dataDir = path.join(root, 'data');
  const workspaces = Array.from({ length: 1 + (opts.extraWorkspaces ?? 0) }, (_, i) => {
    const dir = path.join(root, `ws${i}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  });
  fs.mkdirSync(dataDir, { recursive: true });
  await opts.prepare?.(dataDir);
  const base = loadConfig({
    flags: { dataDir, workspaces, host: '127.0.0.1', port: '0' },
    env: {},
    cwd: root,
    homeDir: root,
  });
  const config: ArborConfig = { ...base, logLevel: 'silent', ...opts.config };
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, webRoot: null, ...opts.build });
  } catch (error) {
    fs.rmSync(root, { recursive: true, force: true });
    throw error;
  }
  let url = '';
  if (opts.listen !== false) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    url = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  } else {
    await app.ready();
  }
  const workspace = config.workspaces[0];
  if (!workspace) throw new Error('no workspace');
  return {
    app,
    url,
    wsUrl: `${url.replace(/^http/, 'ws')}/api/ws`,
    dataDir,
    workspaceId: workspace.id,
    workspacePath: workspace.path,
    close: async () => {
      await app.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The server and WebSocket clients of the test that is running, all closed after it: `start`
 * (or `startTeam`) starts the test's server, `open` connects a client to it, or to `url`, and
 * `track` takes one connected otherwise. The clients close first, then what was handed to `alsoClose` (in order),
 * then the server, and last the folders handed to `removeAfter`. Called once at the top of a test
 * file, it registers the afterEach that does so.
 */
export function serverPerTest() {
  let current: TestServer | undefined;
  const clients: WsTestClient[] = [];
  const others: (() => Promise<unknown> | void)[] = [];
  const folders: string[] = [];
  afterEach(async () => {
    try {
      for (const client of clients.splice(0)) await client.close().catch(() => undefined);
      for (const close of others.splice(0)) await close();
      await current?.close();
    } finally {
      current = undefined;
      for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  const started = (): TestServer => {
    if (!current) throw new Error('no server started in this test');
    return current;
  };
  const track = <T extends WsTestClient>(client: T): T => {
    clients.push(client);
    return client;
  };
  return {
    async start(opts?: TestServerOptions): Promise<TestServer> {
      current = await startTestServer(opts);
      return current;
    },
    /** Starts the test's server as a team server (`startTeamServer`). */
    startTeam<N extends string>(
      users: Record<N, Role>,
      opts?: TestServerOptions,
    ): Promise<TeamServer<N>> {
      return startTeamServer(users, opts, async (o) => (current = await startTestServer(o)));
    },
    /** The server this test started. */
    get server(): TestServer {
      return started();
    },
    track,
    /** Something else the test started, closed after the clients and before the server. */
    alsoClose(close: () => Promise<unknown> | void): void {
      others.push(close);
    },
    /** A folder the test made (for the server or beside it), removed after the server closes. */
    removeAfter(dir: string): void {
      folders.push(dir);
    },
    async open(
      opts?: Parameters<typeof WsTestClient.open>[1],
      url?: string,
    ): Promise<WsTestClient> {
      return track(await WsTestClient.open(url ?? started().wsUrl, opts));
    },
  };
}

export type Role = 'admin' | 'member' | 'viewer';

/** A server with users, each one's login token and logged-in session cookie (`name=value`). */
export interface TeamServer<N extends string> {
  server: TestServer;
  tokens: Record<N, string>;
  cookies: Record<N, string>;
}

/**
 * A team server whose `users` (name → role) are added before it starts, after `opts.prepare`,
 * each one logged in with a real login: over HTTP when the server listens, through `app.inject`
 * when it does not (`listen: false`). `start` starts the server (a `serverPerTest`'s, to have it
 * closed after the test).
 */
export async function startTeamServer<N extends string>(
  users: Record<N, Role>,
  opts: TestServerOptions = {},
  start: (opts: TestServerOptions) => Promise<TestServer> = startTestServer,
): Promise<TeamServer<N>> {
  const tokens = {} as Record<N, string>;
  const server = await start({
    ...opts,
    prepare: async (dataDir) => {
      await opts.prepare?.(dataDir);
      const store = new UserStore(dataDir);
      for (const [name, role] of Object.entries(users) as [N, Role][])
        tokens[name] = (await store.add(name, role)).token;
    },
  });
  const cookies = {} as Record<N, string>;
  for (const name of Object.keys(users) as N[]) {
    cookies[name] = server.url
      ? await loginCookie(server.url, tokens[name])
      : await injectLoginCookie(server.app, tokens[name]);
  }
  return { server, tokens, cookies };
}

export interface TeamOnSocket<N extends string> {
  server: TestServer;
  clients: Record<N, WsTestClient>;
  close(): Promise<void>;
}

/**
 * A listening team server (`startTeamServer`) with one WebSocket client per user, opened with
 * that user's login. `close` closes the clients, then the server.
 */
export async function startTeamOnSocket<N extends string>(
  users: Record<N, Role>,
  opts: TestServerOptions = {},
): Promise<TeamOnSocket<N>> {
  const { server, cookies } = await startTeamServer(users, opts);
  const clients = {} as Record<N, WsTestClient>;
  for (const name of Object.keys(users) as N[])
    clients[name] = await WsTestClient.open(server.wsUrl, { cookie: cookies[name] });
  return {
    server,
    clients,
    close: async () => {
      for (const client of Object.values<WsTestClient>(clients)) await client.close();
      await server.close();
    },
  };
}

/** The file of session `sessionId` under the data folder's sessions. */
export function sessionFileIn(dataDir: string, sessionId: string): string {
  const dir = path.join(dataDir, 'sessions');
  const name = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .find((file) => file.endsWith(`_${sessionId}.jsonl`));
  if (!name) throw new Error('no session file');
  return path.join(dir, name);
}
