import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDemoModel } from '../../demo-model/demo-model-server.js';
import { ModelCatalog } from '../../models/model-catalog.js';

/**
 * A proxy in front of the demo model that keeps every request body it forwards, so a test can
 * read what the model was sent. Answers stream back untouched.
 */
export async function startRecordingProxy(
  targetBaseUrl: string,
  bodies: unknown[],
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(targetBaseUrl);
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length > 0) bodies.push(JSON.parse(body.toString('utf8')));
      const forward = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: `${target.pathname}${req.url!.replace(/^\/v1/, '')}`,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

/** A request body as the demo model gets it, in the OpenAI chat shape. */
export interface ModelRequest {
  messages: { role: string; content: unknown }[];
}

/**
 * The demo model behind a recording proxy that keeps each request body in `bodies`, and a catalog
 * whose demo model is reached through the proxy at `url`. `close` stops both.
 */
export async function startRecordedDemoModel(
  bodies: unknown[],
): Promise<{ url: string; catalog: ModelCatalog; close(): Promise<void> }> {
  const demo = await startDemoModel({ port: 0 });
  const proxy = await startRecordingProxy(demo.baseUrl, bodies);
  return {
    url: proxy.url,
    catalog: ModelCatalog.load({ dataDir: '/nonexistent', demoBaseUrl: proxy.url, env: {} }),
    close: async () => {
      await proxy.close();
      await demo.close();
    },
  };
}

/** The texts of the messages of a request, the system prompt left out, as `role: text`. */
export function requestTexts(body: ModelRequest): string[] {
  return body.messages
    .filter((message) => message.role !== 'system')
    .map((message) => {
      const content = message.content;
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((part: { text?: string }) => part.text ?? '').join('')
            : '';
      return `${message.role}: ${text}`;
    });
}
