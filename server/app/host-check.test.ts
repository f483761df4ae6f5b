import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { UserStore } from '../auth/user-store.js';
import { isLoopbackHostHeader } from './origin-check.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * A server without login answers only requests sent to a loopback name (or an allowed origin's
 * host). Here a client resolves rebind.evil.test to 127.0.0.1 itself, as a browser does after a DNS
 * rebind, and sends its real Host header over a real socket, for HTTP and the WebSocket upgrade.
 */

const tests = serverPerTest();

const toLoopback: LookupFunction = (_name, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
    http
      .get(url, { lookup: toLoopback, headers, agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            type: String(response.headers['content-type']),
          }),
        );
      })
      .on('error', reject);
  });
}

function upgrade(url: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { lookup: toLoopback });
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (_request, response) => resolve(`${response.statusCode}`));
    socket.once('error', () => resolve('error'));
  });
}

const port = () => new URL(tests.server.url).port;

describe('a server without login', () => {
  it('refuses a rebound host name for the API, the page and the WebSocket, saying why', async () => {
    const server = await tests.start();
    const base = `http://rebind.evil.test:${port()}`;
    const api = await get(`${base}/api/workspaces`);
    expect(api.status).toBe(421);
    expect(api.body).not.toContain(server.workspacePath);
    expect(JSON.parse(api.body)).toMatchObject({ error: { code: 'forbidden' } });
    expect(api.body).toContain('allowedOrigins');
    const page = await get(`${base}/`, { accept: 'text/html' });
    expect([page.status, page.type]).toEqual([421, 'text/html; charset=utf-8']);
    expect(page.body).toContain('rebind.evil.test');
    expect(await upgrade(`ws://rebind.evil.test:${port()}/api/ws`)).not.toBe('open');
  });

  it('answers loopback names and the hosts of allowed origins', async () => {
    const server = await tests.start({ config: { allowedOrigins: ['https://arbor.example'] } });
    for (const name of ['127.0.0.1', 'localhost', 'arbor.localhost', '127.0.0.2']) {
      const host = `${name}:${port()}`;
      expect((await get(`${server.url}/api/workspaces`, { host })).status, name).toBe(200);
    }
    expect((await get(`${server.url}/api/workspaces`, { host: 'arbor.example' })).status).toBe(200);
    expect((await get(`${server.url}/api/workspaces`, { host: `[::1]:${port()}` })).status).toBe(
      200,
    );
    expect(await upgrade(`ws://localhost:${port()}/api/ws`)).toBe('open');
    expect((await get(`${server.url}/api/workspaces`, { host: 'arbor.example.evil' })).status).toBe(
      421,
    );
  });

  it('leaves the Host to the login once users exist (the cookie is bound to its host)', async () => {
    await tests.start({
      prepare: async (dataDir) => void (await new UserStore(dataDir).add('ann', 'admin')),
    });
    expect((await get(`http://rebind.evil.test:${port()}/api/workspaces`)).status).toBe(401);
  });
});

describe('isLoopbackHostHeader', () => {
  it('knows loopback names with or without a port, and nothing that only looks like one', () => {
    for (const host of [
      'localhost',
      'LOCALHOST:80',
      'a.localhost:1',
      '127.0.0.1:7478',
      '127.9.9.9',
    ]) {
      expect(isLoopbackHostHeader(host), host).toBe(true);
    }
    expect(isLoopbackHostHeader('[::1]:7478')).toBe(true);
    for (const host of [
      'localhost.evil.test',
      'localhost.',
      '127.0.0.1.evil.test',
      'evil.test',
      'user@localhost',
      'localhost/x',
      '[::2]',
      '0.0.0.0',
      '',
    ]) {
      expect(isLoopbackHostHeader(host), host).toBe(false);
    }
  });
});
