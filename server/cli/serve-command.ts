import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/build-app.js';
import { ConfigError, loadConfig, parseServeFlags } from '../config/load-config.js';

/**
 * `arbor serve [--host H] [--port P] [--data DIR] [--session-dir DIR] [--workspace DIR]...`: checks
 * the configuration, listens, logs the start-up line (where to open it, the workspaces, the data
 * and session folders), and on SIGINT/SIGTERM shuts down gracefully (runs aborted and persisted,
 * sockets closed with 1001).
 */
export async function runServe(args: string[]): Promise<number> {
  let app;
  try {
    const config = loadConfig({ flags: parseServeFlags(args), env: process.env });
    app = await buildApp({ config });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (
      error instanceof ConfigError ||
      code === 'model_config_invalid' ||
      code === 'data_dir_locked'
    ) {
      process.stderr.write(`arbor serve: ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
  const { host, port } = app.arbor.config;
  // Signal handlers first: a supervisor that stops the server as soon as it says it runs must
  // get a graceful shutdown, which releases the data folder's lock.
  let stopping = false;
  let resolveStopped: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => (resolveStopped = resolve));
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => resolveStopped(0),
      (error: unknown) => {
        process.stderr.write(`arbor serve: shutdown failed: ${String(error)}\n`);
        resolveStopped(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Fastify logs one line per address it listens on: the first is the start-up line, any further
  // one (every interface of 0.0.0.0) says where else the page answers.
  let first = true;
  await app.listen({
    host,
    port,
    listenTextResolver: (address) => {
      if (!first) return `also at ${address}/`;
      first = false;
      return startupText(app, host, address.slice(address.lastIndexOf(':') + 1));
    },
  });
  return stopped;
}

/** Where to open Arbor and what it serves, as a person reads it in the console. */
function startupText(app: FastifyInstance, host: string, port: string): string {
  const { config } = app.arbor;
  const shown =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const lines = [
    `Arbor is running at http://${shown}:${port}/`,
    `  workspaces: ${config.workspaces.map((workspace) => workspace.path).join(', ')}`,
    `  data: ${config.dataDir}`,
  ];
  if (config.sessionDir !== undefined) {
    lines.push(`  sessions: ${config.sessionDir} (from ${config.sessionDirSource})`);
  }
  if (app.arbor.authRequired()) lines.push('  login required (arbor user add NAME --role ROLE)');
  return lines.join('\n');
}
