import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expandHome, resolveDataDir } from './data-dir.js';
import { JsonFileError, readJsonFile } from './json-file.js';
import { z } from 'zod';
import { resolveSessionDir, workspaceSessionDirWarnings } from './session-dir.js';
import {
  checkConfigFileApart,
  checkDataDirApart,
  checkSessionDirApart,
  resolveWorkspaces,
  type Workspace,
} from './workspaces.js';

/*
 * Arbor's configuration, from (strongest first) command-line flags, environment variables, the
 * config file (`ARBOR_CONFIG`, else `<dataDir>/config.json`) and defaults. Everything is checked at
 * start-up; a bad value stops the server with a message that names the value, where it came from and
 * what would be accepted.
 */

export const DEFAULT_PORT = 7478;
export const DEFAULT_HOST = '127.0.0.1';

export interface ArborConfig {
  host: string;
  port: number;
  dataDir: string;
  /**
   * The relocated session folder that every workspace shares (pi's `sessionDir`), absolute;
   * undefined: pi's layout, `<dataDir>/sessions/--<workspace>--/`.
   */
  sessionDir: string | undefined;
  /** Where the session folder setting came from ("the default" when none). */
  sessionDirSource: string;
  workspaces: Workspace[];
  /** Problems worth a line in the log at start-up that do not stop the server. */
  warnings: string[];
  /** Origins (scheme://host:port) allowed to open the WebSocket besides the server's own host. */
  allowedOrigins: string[];
  /** In team mode without a sandbox, bash stays off unless this is true. */
  allowUnsandboxedBash: boolean;
  /** An open session with no subscriber and no run is closed after this long. */
  idleSessionMs: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** The console's lines: pino-pretty's (`pretty`), JSON lines (`json`), or pretty on a terminal only. */
  logFormat: (typeof LOG_FORMATS)[number];
  /** Streaming deltas of one session are merged into at most one frame per this many ms (0: per tick). */
  coalesceMs: number;
  /** Bytes a client may have waiting in its socket before it is dropped to a resync. */
  clientBufferLimitBytes: number;
  /** Events kept per session for reconnecting clients. */
  replayEvents: number;
  /** Logins per IP per minute and prompts per user per minute. */
  loginsPerMinute: number;
  promptsPerMinute: number;
  /**
   * Which peers may name the client in X-Forwarded-For (Fastify's `trustProxy`): false (none, the
   * default), true (any peer: only when nothing but the proxy can reach Arbor), or addresses and
   * CIDR ranges of the proxies. (Fastify 5 no longer takes a hop count: it cannot check the peer.)
   */
  trustProxy: boolean | string[];
  /** A connection that has not sent a whole request head by then is closed (408). */
  headersTimeoutMs: number;
  /** Open connections at most (HTTP and WebSocket alike); further ones are refused at once. */
  maxConnections: number;
  /** The raw config file, for parts that read their own keys from it (e.g. `models`). */
  file: Record<string, unknown>;
}

export interface ServeFlags {
  host?: string;
  port?: string;
  dataDir?: string;
  sessionDir?: string;
  workspaces?: string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;

const ConfigFileSchema = z.looseObject({
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  workspaces: z
    .array(
      z.union([
        z.string().min(1),
        z.strictObject({ path: z.string().min(1), resources: z.boolean().optional() }),
      ]),
    )
    .optional(),
  /** False: no workspace loads context files, skills or prompt templates (decision 085). */
  resources: z.boolean().optional(),
  /**
   * True: each turn's workspace files are recorded in a shadow git repository (decision 121).
   * Off by default until the page shows and restores them.
   */
  snapshots: z.boolean().optional(),
  sessionDir: z.string().optional(),
  allowedOrigins: z.array(z.url()).optional(),
  allowUnsandboxedBash: z.boolean().optional(),
  idleSessionMinutes: z.number().positive().optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  logFormat: z.enum(LOG_FORMATS).optional(),
  coalesceMs: z.number().int().min(0).max(1000).optional(),
  clientBufferLimitBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .optional(),
  replayEvents: z.number().int().min(16).max(1_000_000).optional(),
  loginsPerMinute: z.number().int().min(1).optional(),
  promptsPerMinute: z.number().int().min(1).optional(),
  trustProxy: z.union([z.boolean(), z.string(), z.array(z.string())]).optional(),
  headersTimeoutMs: z.number().int().min(100).max(300_000).optional(),
  maxConnections: z.number().int().min(1).optional(),
});

/** Names proxy-addr (under Fastify's trustProxy) accepts for ranges of addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.includes(value)) return true;
  const [address, bits, extra] = value.split('/');
  if (address === undefined || extra !== undefined || net.isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = net.isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/** The trustProxy setting from the config file or ARBOR_TRUST_PROXY, checked. */
function parseTrustProxy(
  value: boolean | string | string[] | undefined,
  source: string,
): boolean | string[] {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
    return value.trim().toLowerCase() === 'true';
  }
  const list = (Array.isArray(value) ? value : value.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const bad = list.find((item) => !isProxyAddress(item));
  if (bad !== undefined || list.length === 0) {
    throw new ConfigError(
      `${source}: "${bad ?? value}" is not a proxy address. Give true, false, or ` +
        'IP addresses and CIDR ranges of your proxies (e.g. "127.0.0.1,10.0.0.0/8", or "loopback").',
    );
  }
  return list;
}

function parsePort(value: string, source: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`${source} must be a whole number from 0 to 65535 (got "${value}").`);
  }
  return Number(value);
}

function readConfigFile(file: string, explicit: boolean): Record<string, unknown> {
  let json: unknown;
  try {
    json = readJsonFile(file);
  } catch (error) {
    if (!(error instanceof JsonFileError)) throw error;
    throw new ConfigError(
      error.problem === 'not_json'
        ? `The config file ${file} is not valid JSON: ${error.detail}`
        : `Cannot read the config file ${file} (${error.detail}). ` +
            (explicit ? 'Fix ARBOR_CONFIG or create the file.' : 'Check its permissions.'),
    );
  }
  if (json === undefined) {
    if (!explicit) return {};
    throw new ConfigError(
      `Cannot read the config file ${file} (it does not exist). Fix ARBOR_CONFIG or create the file.`,
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConfigError(`The config file ${file} must hold a JSON object.`);
  }
  return json as Record<string, unknown>;
}

/** Builds and checks the configuration; throws ConfigError with an actionable message. */
export function loadConfig(opts: {
  flags?: ServeFlags;
  env?: Record<string, string | undefined>;
  cwd?: string;
  homeDir?: string;
}): ArborConfig {
  const flags = opts.flags ?? {};
  const env = opts.env ?? {};
  const cwd = opts.cwd ?? process.cwd();
  const home = opts.homeDir ?? os.homedir();

  const dataDir = resolveDataDir({ flag: flags.dataDir, env, cwd, home });
  const configPath = nonEmpty(env.ARBOR_CONFIG);
  const configFile = configPath
    ? path.resolve(cwd, expandHome(configPath, home))
    : path.join(dataDir, 'config.json');
  const raw = readConfigFile(configFile, configPath !== undefined);
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `  ${issue.path.join('.') || '(top level)'}: ${issue.message}`)
      .join('\n');
    throw new ConfigError(`The config file ${configFile} has invalid values:\n${problems}`);
  }
  const file = parsed.data;

  let host = DEFAULT_HOST;
  if (file.host !== undefined) host = file.host;
  if (nonEmpty(env.HOST) !== undefined) host = env.HOST as string;
  if (flags.host !== undefined) host = flags.host;
  if (host.trim() === '') throw new ConfigError('The host must not be empty.');

  let port = file.port ?? DEFAULT_PORT;
  if (nonEmpty(env.PORT) !== undefined) port = parsePort(env.PORT as string, 'PORT');
  if (flags.port !== undefined) port = parsePort(flags.port, '--port');

  let workspaceDirs: string[] = [cwd];
  let workspaceSource = 'the current directory';
  if (file.workspaces && file.workspaces.length > 0) {
    workspaceDirs = file.workspaces.map((entry) =>
      expandHome(typeof entry === 'string' ? entry : entry.path, home),
    );
    workspaceSource = configFile;
  }
  const envWorkspaces = nonEmpty(env.ARBOR_WORKSPACES);
  if (envWorkspaces !== undefined) {
    workspaceDirs = envWorkspaces
      .split(path.delimiter)
      .filter((dir) => dir.length > 0)
      .map((dir) => expandHome(dir, home));
    workspaceSource = 'ARBOR_WORKSPACES';
  }
  if (flags.workspaces && flags.workspaces.length > 0) {
    workspaceDirs = flags.workspaces.map((dir) => expandHome(dir, home));
    workspaceSource = '--workspace';
  }
  let workspaces: Workspace[];
  try {
    workspaces = resolveWorkspaces(workspaceDirs, cwd, workspaceSource);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (workspaces.length === 0) throw new ConfigError('At least one workspace is needed.');
  applyResourceSettings(workspaces, file, cwd, home);
  const dataSource =
    flags.dataDir !== undefined
      ? '--data'
      : nonEmpty(env.ARBOR_DATA_DIR) !== undefined
        ? 'ARBOR_DATA_DIR'
        : 'the default';
  let sessionDir;
  try {
    checkDataDirApart(dataDir, dataSource, workspaces);
    if (configPath !== undefined) checkConfigFileApart(configFile, workspaces);
    sessionDir = resolveSessionDir({
      flag: flags.sessionDir,
      env,
      configValue: file.sessionDir,
      configFile,
      dataDir,
      cwd,
      home,
    });
    if (sessionDir.dir !== undefined) {
      checkSessionDirApart(sessionDir.dir, sessionDir.source, workspaces);
    }
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }

  return {
    host,
    port,
    dataDir,
    sessionDir: sessionDir.dir,
    sessionDirSource: sessionDir.source,
    workspaces,
    warnings: workspaceSessionDirWarnings(workspaces, sessionDir),
    allowedOrigins: (file.allowedOrigins ?? []).map((origin) => new URL(origin).origin),
    allowUnsandboxedBash: file.allowUnsandboxedBash ?? false,
    idleSessionMs: (file.idleSessionMinutes ?? 10) * 60_000,
    logLevel: oneOf(env.ARBOR_LOG_LEVEL, LOG_LEVELS, 'ARBOR_LOG_LEVEL') ?? file.logLevel ?? 'info',
    logFormat:
      oneOf(env.ARBOR_LOG_FORMAT, LOG_FORMATS, 'ARBOR_LOG_FORMAT') ?? file.logFormat ?? 'auto',
    coalesceMs: file.coalesceMs ?? 30,
    clientBufferLimitBytes: file.clientBufferLimitBytes ?? 8 * 1024 * 1024,
    replayEvents: file.replayEvents ?? 4096,
    loginsPerMinute: file.loginsPerMinute ?? 10,
    promptsPerMinute: file.promptsPerMinute ?? 60,
    trustProxy:
      nonEmpty(env.ARBOR_TRUST_PROXY) !== undefined
        ? parseTrustProxy(env.ARBOR_TRUST_PROXY, 'ARBOR_TRUST_PROXY')
        : parseTrustProxy(file.trustProxy, `${configFile} trustProxy`),
    headersTimeoutMs: file.headersTimeoutMs ?? 10_000,
    maxConnections: file.maxConnections ?? 1000,
    file: raw,
  };
}

/**
 * Each workspace's `resources` switch: its own entry's `{path, resources}` in the config file,
 * else the file's top-level `resources`, else on. Matched by real path, so it holds whichever
 * way (flag, env, file) the workspace was named.
 */
function applyResourceSettings(
  workspaces: Workspace[],
  file: z.infer<typeof ConfigFileSchema>,
  cwd: string,
  home: string,
): void {
  const perWorkspace = new Map<string, boolean>();
  for (const entry of file.workspaces ?? []) {
    if (typeof entry === 'string' || entry.resources === undefined) continue;
    let listed: Workspace[];
    try {
      listed = resolveWorkspaces([expandHome(entry.path, home)], cwd, 'the config file');
    } catch {
      continue; // not a workspace this time (flags named others): nothing to switch
    }
    for (const workspace of listed) perWorkspace.set(workspace.path, entry.resources);
  }
  for (const workspace of workspaces) {
    const setting = perWorkspace.get(workspace.path) ?? file.resources;
    if (setting === false) workspace.resources = false;
  }
}

/** An environment variable that must be one of `allowed`; undefined when unset. */
function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  source: string,
): T | undefined {
  const given = nonEmpty(value)?.trim().toLowerCase();
  if (given === undefined) return undefined;
  if ((allowed as readonly string[]).includes(given)) return given as T;
  throw new ConfigError(`${source} must be one of ${allowed.join(', ')} (got "${value}").`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

export const SERVE_USAGE =
  'arbor serve [--host H] [--port P] [--data DIR] [--session-dir DIR] [--workspace DIR]...';

/** Parses `serve` flags; throws ConfigError on an unknown flag or a flag without its value. */
export function parseServeFlags(args: string[]): ServeFlags {
  const flags: ServeFlags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) {
        throw new ConfigError(`${name} needs a value.`);
      }
      i++;
      return next;
    };
    switch (name) {
      case '--host':
        flags.host = value();
        break;
      case '--port':
        flags.port = value();
        break;
      case '--data':
        flags.dataDir = value();
        break;
      case '--session-dir':
        flags.sessionDir = value();
        break;
      case '--workspace':
        (flags.workspaces ??= []).push(value());
        break;
      default:
        throw new ConfigError(`Unknown option "${arg}". Usage: ${SERVE_USAGE}`);
    }
  }
  return flags;
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
