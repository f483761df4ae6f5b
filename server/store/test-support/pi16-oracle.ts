import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/*
 * pi 1.6.0 (`@earendil-works/pi-coding-agent`) as an oracle for tests. It runs in a child process
 * under the test's own Node (Arbor and pi 1.6 both need Node >= 22.19), apart from the test's
 * modules and state, from its own package (oracles/pi16). Every child gets its own
 * `PI_CODING_AGENT_DIR` and `PI_OFFLINE`, so the machine's `~/.pi` is never read or written and
 * pi makes no network request of its own. pi 0.73.1 stays the oracle for old files
 * (server/compaction/test-support/pi-oracle.ts).
 */

/** The Node that runs pi 1.6. */
export const PI16_NODE = process.execPath;
/** pi 1.6 is a package of its own, installed under that Node (scripts/install-oracles.mjs). */
const PI16_PACKAGE = path.resolve('oracles/pi16/node_modules/@earendil-works/pi-coding-agent');
/** pi 1.6's CLI (its `bin`), run by path: `node_modules/.bin/pi` may be pi 0.73's. */
export const PI16_CLI = path.join(PI16_PACKAGE, 'dist/bundle/cli.js');
const PI16_INDEX = path.join(PI16_PACKAGE, 'dist/index.js');
const CHILD = path.join(import.meta.dirname, 'pi16-oracle-child.mjs');
const MODELS_CHILD = path.join(import.meta.dirname, 'pi16-models-child.mjs');

/** Files the real pi 1.6 CLI wrote against Arbor's demo model (copies kept in the repo). */
export const PI16_FIXTURES = path.join(import.meta.dirname, 'fixtures/pi16');

const run = promisify(execFile);

// pi's context is compared as plain JSON; its shape is pi's, not Arbor's.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PiContext = any;

/** How pi 1.6's session listing (`SessionManager.list`) shows a file. */
export interface Pi16Listing {
  id: string;
  name?: string;
  messageCount: number;
  firstMessage: string;
}

export interface Pi16Session {
  /** The file in pi 1.6's listing (null when it lists it not). */
  listing: Pi16Listing | null;
  /** The id pi 1.6 gives the session (its header's). */
  sessionId: string;
  leafId: string | null;
  entryIds: string[];
  /** `buildSessionContext()` at the file's leaf. */
  context: PiContext;
  /** `buildSessionContext()` with each entry as leaf. */
  byEntry: Record<string, PiContext>;
  /** pi-ai's `getCurrentSystemMessage` (null: none) and `getCurrentSystemPrompt` there. */
  promptByEntry: Record<string, { message: PiContext; text: string }>;
}

function privateAgentDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi16-agent-'));
}

/**
 * Loads `file` with pi 1.6's SessionManager. pi works on a copy (pi 1.6 may append a final
 * newline on load), so `file` is left byte for byte as it was.
 */
export async function readWithPi16(file: string): Promise<Pi16Session> {
  const agentDir = privateAgentDir();
  try {
    const copy = path.join(agentDir, path.basename(file));
    fs.copyFileSync(file, copy);
    fs.chmodSync(copy, 0o644);
    const { stdout } = await run(PI16_NODE, [CHILD, PI16_INDEX, copy], {
      env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' },
      maxBuffer: 256 << 20,
    });
    return JSON.parse(stdout) as Pi16Session;
  } finally {
    fs.rmSync(agentDir, { recursive: true, force: true });
  }
}

export interface Pi16CliOptions {
  /** The working directory pi runs in (its sessions go to the agent folder's folder for it). */
  cwd: string;
  /** pi's agent folder (`PI_CODING_AGENT_DIR`): models.json, sessions, settings. */
  agentDir: string;
  env?: Record<string, string>;
  /** Written to pi's stdin, which is then closed. */
  input?: string;
}

export interface Pi16CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real pi 1.6 CLI to its end (e.g. `['-p', 'hello']`). Asynchronous, so a server in the
 * test process (Arbor's demo model) can answer it.
 */
export function runPi16Cli(args: string[], opts: Pi16CliOptions): Promise<Pi16CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI16_NODE, [PI16_CLI, ...args], {
      cwd: opts.cwd,
      env: {
        ...process.env,
        PI_CODING_AGENT_DIR: opts.agentDir,
        PI_OFFLINE: '1',
        PI_SKIP_VERSION_CHECK: '1',
        PI_TELEMETRY: '0',
        ...opts.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * pi 1.6's own `resolveConfigValue` (how it reads an `apiKey` of models.json) on each value, with
 * only `env` as the environment. Command values (`!…`) are not to be passed: pi would run them.
 */
export async function resolveWithPi16(
  values: string[],
  env: Record<string, string>,
): Promise<(string | null)[]> {
  if (values.some((value) => value.startsWith('!'))) throw new Error('pi would run a command');
  const module = path.join(PI16_PACKAGE, 'dist/core/resolve-config-value.js');
  const script = `
    const { resolveConfigValue } = await import(${JSON.stringify(pathToFileURL(module).href)});
    const values = JSON.parse(process.argv[1]);
    process.stdout.write(JSON.stringify(values.map((v) => resolveConfigValue(v) ?? null)));`;
  const { stdout } = await run(
    PI16_NODE,
    ['--input-type=module', '-e', script, JSON.stringify(values)],
    { env: { PATH: process.env.PATH ?? '', ...env } },
  );
  return JSON.parse(stdout) as (string | null)[];
}

/** A model as pi 1.6's ModelRuntime has it, with the key pi would send (null: none). */
export interface Pi16Model {
  provider: string;
  id: string;
  name: string;
  api: string;
  baseUrl: string;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  input: string[];
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  thinkingLevelMap: Record<string, string | null> | null;
  headers: Record<string, string> | null;
  compat: Record<string, unknown> | null;
  apiKey: string | null;
}

/**
 * The models of `providers` that pi 1.6 reads from `<agentDir>/models.json` (merged with pi's
 * built-in ones of those providers), with only `env` as the environment. The file must hold no
 * `!command` key for those providers: pi would run it.
 */
export async function readModelsWithPi16(
  agentDir: string,
  providers: string[],
  env: Record<string, string>,
): Promise<{ error: string | null; models: Pi16Model[] }> {
  const { stdout } = await run(
    PI16_NODE,
    [MODELS_CHILD, PI16_INDEX, agentDir, JSON.stringify(providers)],
    {
      env: { PATH: process.env.PATH ?? '', PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', ...env },
      maxBuffer: 64 << 20,
    },
  );
  return JSON.parse(stdout) as { error: string | null; models: Pi16Model[] };
}

const RESOLVE_CHILD = path.join(import.meta.dirname, 'pi16-resolve-child.mjs');

/** What pi 1.6's `resolveCliModel` made of one `--model` text. */
export interface Pi16Resolution {
  text: string;
  provider: string | null;
  id: string | null;
  thinkingLevel: string | null;
  warning: string | null;
  error: string | null;
}

/**
 * pi 1.6's own reading of each `pi --model TEXT` over its built-in catalog, with `usable`
 * providers counted as having a key; returns that catalog too, so Arbor's resolver can be asked
 * the same over the same models.
 */
export async function resolveModelWithPi16(
  texts: string[],
  usable: string[],
  /** Lists of `enabledModels` patterns, each scoped as pi scopes them. */
  scopes: string[][] = [],
): Promise<{
  models: { provider: string; id: string; name: string }[];
  results: Pi16Resolution[];
  scoped: string[][];
}> {
  const agentDir = privateAgentDir();
  try {
    const { stdout } = await run(
      PI16_NODE,
      [RESOLVE_CHILD, PI16_INDEX, agentDir, JSON.stringify({ texts, usable, scopes })],
      {
        env: { PATH: process.env.PATH ?? '', PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' },
        maxBuffer: 64 << 20,
      },
    );
    return JSON.parse(stdout) as Awaited<ReturnType<typeof resolveModelWithPi16>>;
  } finally {
    fs.rmSync(agentDir, { recursive: true, force: true });
  }
}

const CRAFT_CHILD = path.join(import.meta.dirname, 'pi16-craft-child.mjs');

/**
 * A session that pi 1.6's own SessionManager writes into `sessionDir` with every kind of entry it
 * can append (see pi16-craft-child.mjs); returns the file.
 */
export async function craftWithPi16(cwd: string, sessionDir: string): Promise<string> {
  const agentDir = privateAgentDir();
  try {
    const { stdout } = await run(PI16_NODE, [CRAFT_CHILD, PI16_INDEX, cwd, sessionDir], {
      env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' },
    });
    return stdout.trim();
  } finally {
    fs.rmSync(agentDir, { recursive: true, force: true });
  }
}

const AUTH_CHILD = path.join(import.meta.dirname, 'pi16-auth-child.mjs');

/**
 * pi 1.6 renewing `provider`'s subscription in `authPath` through its own AuthStorage: holds
 * pi's lock for `holdMs` and saves `credential`. Resolves once pi holds the lock, with a promise
 * of pi's finish.
 */
export async function renewWithPi16(
  authPath: string,
  provider: string,
  holdMs: number,
  credential: Record<string, unknown>,
): Promise<{ done: Promise<void> }> {
  const child = spawn(
    PI16_NODE,
    [AUTH_CHILD, PI16_INDEX, authPath, provider, String(holdMs), JSON.stringify(credential)],
    {
      env: { PATH: process.env.PATH ?? '', PI_OFFLINE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<void>((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 && out.includes('saved')
        ? resolve()
        : reject(new Error(`pi 1.6 did not save (${code}): ${err}`)),
    ),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('locked')) resolve();
    });
    done.catch(reject);
  });
  return { done };
}
