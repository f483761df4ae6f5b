import { buildApp } from '../app/build-app.js';
import { ConfigError, loadConfig, parseServeFlags } from '../config/load-config.js';

/**
 * `arbor serve [--host H] [--port P] [--data DIR] [--workspace DIR]...`: checks the configuration,
 * listens, prints the URL, and on SIGINT/SIGTERM shuts down gracefully (runs aborted and
 * persisted, sockets closed with 1001).
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
  const { host, port, workspaces } = app.arbor.config;
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
  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = address && typeof address === 'object' ? address.port : port;
  const shown =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  process.stdout.write(
    `Arbor is running at http://${shown}:${actualPort}/\n` +
      `  workspaces: ${workspaces.map((workspace) => workspace.path).join(', ')}\n` +
      `  data: ${app.arbor.config.dataDir}\n` +
      (app.arbor.authRequired() ? '  login required (arbor user add NAME --role ROLE)\n' : ''),
  );
  return stopped;
}
