import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { createDemoModelHandler, type DemoModelOptions } from './demo-model-handler.js';

/*
 * Two ways to serve the demo model: a standalone HTTP server (tests, `arbor run` without a
 * server) and a Fastify plugin that Arbor's server mounts at `/demo/v1`.
 */

export interface StartDemoModelOptions extends DemoModelOptions {
  port?: number;
  host?: string;
  /** Told of every request body it is sent, before it answers (tests compare requests). */
  onRequest?(path: string, body: unknown): void;
}

export interface RunningDemoModel {
  /** Base URL for an OpenAI client, ending in `/v1`. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The largest request the demo model reads: a full context of its 128,000-token window with a few
 * pictures; anything bigger is refused before it is parsed.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the demo model on 127.0.0.1 (port 0 = any free port). */
export async function startDemoModel(opts: StartDemoModelOptions = {}): Promise<RunningDemoModel> {
  const handler = createDemoModelHandler(opts);
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://demo');
      if (!url.pathname.startsWith('/v1/')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              message: 'Not found',
              type: 'invalid_request_error',
              param: null,
              code: 'not_found',
            },
          }),
        );
        return;
      }
      let body: unknown = undefined;
      if (req.method === 'POST') {
        try {
          const text = await readBody(req);
          body = text.length > 0 ? JSON.parse(text) : undefined;
        } catch (error) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: {
                message: `Invalid JSON body: ${error instanceof Error ? error.message : String(error)}`,
                type: 'invalid_request_error',
                param: null,
                code: null,
              },
            }),
          );
          return;
        }
      }
      opts.onRequest?.(url.pathname.slice('/v1'.length), body);
      await handler.handle(req, res, url.pathname.slice('/v1'.length), body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: String(error), type: 'server_error', param: null, code: null },
        }),
      );
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The demo model as routes of a Fastify app. Register it with a prefix ending in `/v1`, e.g.
 * `app.register(demoModelPlugin, { prefix: '/demo/v1' })`, and point the catalog's demo entry at
 * `http://HOST:PORT/demo/v1`.
 */
export interface DemoModelPluginOptions extends DemoModelOptions {
  /**
   * Whether the request may use the model; refused ones get OpenAI's 401. Default: every request
   * (the standalone server's rule: it listens on loopback only).
   */
  admit?(request: FastifyRequest): boolean;
}

export const demoModelPlugin: FastifyPluginAsync<DemoModelPluginOptions> = async (app, options) => {
  const handler = createDemoModelHandler(options);
  const admit = options.admit;
  if (admit) {
    // Before the body is read: a refused caller costs nothing.
    app.addHook('onRequest', async (request, reply) => {
      if (admit(request)) return;
      return reply.code(401).send({
        error: {
          message: 'The demo model answers this server and its signed-in users only.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    });
  }
  app.get('/models', async (request, reply) => {
    reply.hijack();
    await handler.handle(request.raw, reply.raw, '/models', undefined);
  });
  app.post('/chat/completions', { bodyLimit: MAX_BODY_BYTES }, async (request, reply) => {
    reply.hijack();
    await handler.handle(request.raw, reply.raw, '/chat/completions', request.body);
  });
};
