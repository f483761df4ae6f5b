import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { UserStore } from '../auth/user-store.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * Behind a reverse proxy every request comes from the proxy's address. With `trustProxy` naming the
 * proxy, the login limit counts each client named in X-Forwarded-For; a peer that is not a trusted
 * proxy cannot dodge the limit by writing that header itself. Real sockets from two loopback
 * addresses: 127.0.0.1 is the trusted proxy, 127.0.0.2 an untrusted peer.
 */

const tests = serverPerTest();

function attemptLogin(from: string, forwardedFor: string): Promise<number> {
  const { port } = new URL(tests.server.url);
  const body = JSON.stringify({ token: 'not-a-token' });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: '/api/login',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': forwardedFor,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function teamServer(trustProxy: boolean | string[]) {
  await tests.start({
    config: { trustProxy, loginsPerMinute: 3 },
    prepare: async (dataDir) => void (await new UserStore(dataDir).add('ann', 'admin')),
  });
}

describe('the login limit behind a proxy', () => {
  it('counts each client a trusted proxy names, not the proxy', async () => {
    await teamServer(['127.0.0.1']);
    for (let i = 0; i < 3; i++) expect(await attemptLogin('127.0.0.1', '203.0.113.7')).toBe(401);
    expect(await attemptLogin('127.0.0.1', '203.0.113.7')).toBe(429);
    // Another client behind the same proxy has attempts of its own.
    expect(await attemptLogin('127.0.0.1', '203.0.113.8')).toBe(401);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    await teamServer(['127.0.0.1']);
    for (let i = 0; i < 3; i++) {
      expect(await attemptLogin('127.0.0.2', `198.51.100.${i}`)).toBe(401);
    }
    expect(await attemptLogin('127.0.0.2', '198.51.100.99')).toBe(429);
  });

  it('ignores X-Forwarded-For altogether unless a proxy is configured', async () => {
    await teamServer(false);
    for (let i = 0; i < 3; i++) {
      expect(await attemptLogin('127.0.0.1', `198.51.100.${i}`)).toBe(401);
    }
    expect(await attemptLogin('127.0.0.1', '198.51.100.99')).toBe(429);
  });
});
