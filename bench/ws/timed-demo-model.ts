import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoModelHandler } from '../../server/demo-model/demo-model-handler.js';

/*
 * Arbor's demo model, served so the benchmark can note when each streamed chunk leaves: every
 * response write is scanned for the benchmark's word tokens (`S<session>R<round>W<n>`), and the time of the
 * write is recorded per token on the machine-wide monotonic clock (`monotonicMs`), which the
 * clients in another process read too.
 */

export const TOKEN = /S\d+R[a-z]+W\d+/g;

/** Milliseconds on CLOCK_MONOTONIC: comparable between processes on one machine. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface TimedDemoModel {
  baseUrl: string;
  /** monotonicMs() at which the chunk holding each token was written to the socket. */
  sentAt: Map<string, number>;
  close(): Promise<void>;
}

export async function startTimedDemoModel(chunkDelayMs: number): Promise<TimedDemoModel> {
  const handler = createDemoModelHandler({ chunkDelayMs, contextWindow: 10_000_000 });
  const sentAt = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      const now = monotonicMs();
      for (const match of String(chunk).matchAll(TOKEN)) sentAt.set(match[0], now);
      return write(chunk, ...rest);
    }) as typeof res.write;
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/v1/, '');
      handler.handle(req, res, path, body).catch(() => res.destroy());
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    sentAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
