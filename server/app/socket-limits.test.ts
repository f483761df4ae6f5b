import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { serverPerTest } from './test-support/test-server.js';

/*
 * Half-open sockets must not pile up: a connection that sends half a request line is closed once
 * the header timeout passes (set to 1 s here through the config), and connections past the cap are
 * refused at once while the server goes on answering the ones it holds. Raw sockets throughout, so
 * that no client library opens or pools connections of its own.
 */

const tests = serverPerTest();

interface RawSocket {
  socket: net.Socket;
  received(): string;
  closed: Promise<void>;
}

async function connect(url: string): Promise<RawSocket> {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => data, closed };
}

const HEALTH = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';

describe('half-open sockets', () => {
  it('closes a socket that sent half a request line once the header timeout passes', async () => {
    const server = await tests.start({ config: { headersTimeoutMs: 1000 } });
    const slow = await connect(server.url);
    slow.socket.write('GET /api/hea');
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    // A whole request still gets its answer.
    const quick = await connect(server.url);
    quick.socket.write(HEALTH);
    await quick.closed;
    expect(quick.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('refuses connections over the cap and goes on serving those it holds', async () => {
    const server = await tests.start({ config: { maxConnections: 3 } });
    const held = [await connect(server.url), await connect(server.url), await connect(server.url)];
    for (const { socket } of held) socket.write('GET /api/hea');

    // Accepted by the kernel, then dropped by the server without a byte of answer (or reset
    // before the connection is reported).
    const outcome = await connect(server.url).then(
      async (extra) => {
        extra.socket.write(HEALTH);
        await extra.closed;
        return extra.received() === '' ? 'dropped' : `answered: ${extra.received()}`;
      },
      () => 'dropped',
    );
    expect(outcome).toBe('dropped');

    // The held connections still get their answers.
    const first = held[0] as RawSocket;
    first.socket.write('lth HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await first.closed;
    expect(first.received()).toMatch(/^HTTP\/1\.1 200 /);

    // With a place free again, a new connection is served.
    let answer = '';
    for (let attempt = 0; attempt < 20 && !answer.startsWith('HTTP/1.1 200'); attempt++) {
      const next = await connect(server.url);
      next.socket.write(HEALTH);
      await next.closed;
      answer = next.received();
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    for (const { socket } of held) socket.destroy();
  });
});
