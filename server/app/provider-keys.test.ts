import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { ProviderListSchema } from '../../shared/rest-shapes.js';
import { writeLocalProvider } from '../models/test-support/local-provider.js';
import { requestAs } from './test-support/json-request.js';
import { serverPerTest } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * An admin saves a provider's API key over HTTP into pi's auth.json; nobody else may, the key is
 * never answered back, and the models of that provider are usable at once.
 */

const tests = serverPerTest();

const SECRET = 'sk-local-0123456789';

describe('provider keys', () => {
  it('only an admin saves or removes a key; it lands in auth.json and the model has a key at once', async () => {
    const { server, cookies } = await tests.startTeam(
      { ada: 'admin', max: 'member', vic: 'viewer' },
      { prepare: writeLocalProvider },
    );
    const call = (method: string, who: keyof typeof cookies, body?: unknown, provider = 'local') =>
      requestAs(server, cookies[who], method, `/api/providers/${provider}/key`, body);
    const noKey = async () => {
      const client = tests.track(await WsTestClient.open(server.wsUrl, { cookie: cookies.ada }));
      const sessionId = await client.newSession(server.workspaceId);
      const snapshot = (await client.seen(
        (m) => m.type === 'snapshot' && m.sessionId === sessionId,
      )) as Snapshot;
      await client.close();
      return snapshot.models.find((model) => model.id === 'local-model')?.noKey;
    };
    expect(await noKey()).toMatch(/^No API key/);

    for (const who of ['max', 'vic'] as const) {
      const refused = await call('PUT', who, { key: SECRET });
      expect(refused.status).toBe(403);
    }
    expect(fs.existsSync(path.join(server.dataDir, 'auth.json'))).toBe(false);
    expect((await call('PUT', 'ada', { key: 'two\nlines' })).status).toBe(400);
    expect((await call('PUT', 'ada', { key: SECRET }, '..%2Fusers')).status).toBe(400);

    const saved = await call('PUT', 'ada', { key: SECRET });
    expect(saved.status).toBe(204);
    expect(await saved.text()).toBe('');
    expect(JSON.parse(fs.readFileSync(path.join(server.dataDir, 'auth.json'), 'utf8'))).toEqual({
      local: { type: 'api_key', key: SECRET },
    });
    expect(await noKey()).toBeUndefined();

    expect((await call('DELETE', 'max')).status).toBe(403);
    expect((await call('DELETE', 'ada')).status).toBe(204);
    expect((await call('DELETE', 'ada')).status).toBe(404);
    expect(await noKey()).toMatch(/^No API key/);
  });

  it('tells an admin, and only an admin, where each provider gets its key, never the key', async () => {
    const { server, cookies } = await tests.startTeam(
      { ada: 'admin', max: 'member' },
      {
        prepare: (dataDir) => {
          writeLocalProvider(dataDir);
          fs.writeFileSync(
            path.join(dataDir, 'auth.json'),
            JSON.stringify({
              anthropic: { type: 'oauth', access: 'sk-ant-oat01-x', refresh: 'r', expires: 1 },
            }),
          );
        },
      },
    );
    const list = async (who: 'ada' | 'max') =>
      requestAs(server, cookies[who], 'GET', '/api/providers');
    expect((await list('max')).status).toBe(403);
    const keyOf = async () => {
      const answer = ProviderListSchema.parse(await (await list('ada')).json());
      return Object.fromEntries(answer.providers.map((p) => [p.provider, p.key]));
    };
    const before = await keyOf();
    expect(before.local).toBeNull();
    expect(before.anthropic).toBe('subscription');
    expect(before.openai).toBeNull();
    expect(before.arbor).toBeUndefined();
    expect(
      (await requestAs(server, cookies.ada, 'PUT', '/api/providers/local/key', { key: SECRET }))
        .status,
    ).toBe(204);
    expect((await keyOf()).local).toBe('saved');
    const text = await (await list('ada')).text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('sk-ant-oat01');
  });
});
