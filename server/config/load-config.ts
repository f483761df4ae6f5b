import os from 'node:os';
import path from 'node:path';
import { JsonFileError, readJsonFile } from './json-file.js';
import { z } from 'zod';
import { checkDataDirApart, resolveWorkspaces, type Workspace } from './workspaces.js';

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
  workspaces: Workspace[];
  /** Origins (scheme://host:port) allowed to open the WebSocket besides the server's own host. */
  allowedOrigins: string[];
  /** In team mode without a sandbox, bash stays off unless this is true. */
  allowUnsandboxedBash: boolean;
  /** An open session with no subscriber and no run is closed after this long. */
  idleSessionMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Streaming deltas of one session are merged into at most one frame per this many ms (0: per tick). */
  coalesceMs: number;
  /** Bytes a client may have waiting in its socket before it is dropped to a resync. */
  clientBufferLimitBytes: number;
  /** Events kept per session for reconnecting clients. */
  replayEvents: number;
  /** Logins per IP per minute and prompts per user per minute. */
  loginsPerMinute: number;
  promptsPerMinute: number;
  /** The raw config file, for parts that read their own keys from it (e.g. `models`). */
  file: Record<string, unknown>;
}

export interface ServeFlags {
  host?: string;
  port?: string;
  dataDir?: string;
  workspaces?: string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const ConfigFileSchema = z.looseObject({
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  workspaces: z.array(z.string().min(1)).optional(),
  allowedOrigins: z.array(z.url()).optional(),
  allowUnsandboxedBash: z.boolean().optional(),
  idleSessionMinutes: z.number().positive().optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  coalesceMs: z.number().int().min(0).max(1000).optional(),
  clientBufferLimitBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .optional(),
  replayEvents: z.number().int().min(16).max(1_000_000).optional(),
  loginsPerMinute: z.number().int().min(1).optional(),
  promptsPerMinute: z.number().int().min(1).optional(),
});

function parsePort(value: string, source: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`${source} must be a whole number from 0 to 65535 (got "${value}").`);
  }
  return Number(value);
}

function expandHome(dir: string, home: string): string {
  return dir === '~' || dir.startsWith('~/') ? path.join(home, dir.slice(1)) : dir;
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

  const dataDir = path.resolve(
    cwd,
    expandHome(flags.dataDir ?? nonEmpty(env.ARBOR_DATA_DIR) ?? '~/.arbor', home),
  );
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
    workspaceDirs = file.workspaces.map((dir) => expandHome(dir, home));
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
  const dataSource =
    flags.dataDir !== undefined
      ? '--data'
      : nonEmpty(env.ARBOR_DATA_DIR) !== undefined
        ? 'ARBOR_DATA_DIR'
        : 'the default';
  try {
    checkDataDirApart(dataDir, dataSource, workspaces);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }

  return {
    host,
    port,
    dataDir,
    workspaces,
    allowedOrigins: (file.allowedOrigins ?? []).map((origin) => new URL(origin).origin),
    allowUnsandboxedBash: file.allowUnsandboxedBash ?? false,
    idleSessionMs: (file.idleSessionMinutes ?? 10) * 60_000,
    logLevel: file.logLevel ?? 'info',
    coalesceMs: file.coalesceMs ?? 30,
    clientBufferLimitBytes: file.clientBufferLimitBytes ?? 8 * 1024 * 1024,
    replayEvents: file.replayEvents ?? 4096,
    loginsPerMinute: file.loginsPerMinute ?? 10,
    promptsPerMinute: file.promptsPerMinute ?? 60,
    file: raw,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

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
      case '--workspace':
        (flags.workspaces ??= []).push(value());
        break;
      default:
        throw new ConfigError(
          `Unknown option "${arg}". Usage: arbor serve [--host H] [--port P] [--data DIR] [--workspace DIR]...`,
        );
    }
  }
  return flags;
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
