import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
