import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelListSchema } from '../../shared/rest-shapes.js';
import type { Snapshot } from '../../shared/protocol.js';
import { requestAs } from './test-support/json-request.js';
import { serverPerTest } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * The catalog on demand: a snapshot offers the models in use (a few on a first run), and
 * `GET /api/models` searches all of pi's catalog for any signed-in user; a model found there can
 * be chosen for a session. Nobody signed out reads it, and no answer holds a key or its variable.
 */

const tests = serverPerTest();

const snapshotOf = async (client: WsTestClient, sessionId: string) =>
  (await client.seen((m) => m.type === 'snapshot' && m.sessionId === sessionId)) as Snapshot;

describe('the model listing', () => {
  it('searches the whole catalog for a member; a model found there can be chosen', async () => {
    const { server, cookies } = await tests.startTeam({ ada: 'admin', max: 'member' });
    const list = (query: string, cookie = cookies.max) =>
      fetch(`${server.url}/api/models?${query}`, { headers: cookie ? { cookie } : {} });

    expect((await list('q=claude', '')).status).toBe(401);
    expect((await list('limit=0')).status).toBe(400);
    expect((await list('limit=5000')).status).toBe(400);
    expect((await list(`q=${'x'.repeat(201)}`)).status).toBe(400);

    const answer = await list('q=anthropic%20sonnet&limit=3');
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const found = ModelListSchema.parse(JSON.parse(text));
    expect(found.models).toHaveLength(3);
    expect(found.total).toBeGreaterThan(3);
    for (const model of found.models) {
      expect(`${model.provider}/${model.id} ${model.name}`.toLowerCase()).toMatch(/sonnet/);
      expect(model.noKey).toMatch(/^No API key: set /);
      expect(model.price?.output).toBeGreaterThan(0);
    }
    expect(text).not.toMatch(/apiKey|headers/);

    const client = tests.track(await WsTestClient.open(server.wsUrl, { cookie: cookies.max }));
    const sessionId = await client.newSession(server.workspaceId);
    const snapshot = await snapshotOf(client, sessionId);
    // A first run offers the demo model and a few others, not the whole catalog.
    expect(snapshot.models.length).toBeLessThan(20);
    const chosen = found.models.find(
      (model) => !snapshot.models.some((m) => m.provider === model.provider && m.id === model.id),
    )!;
    expect(chosen).toBeDefined();
    await client.ok({
      type: 'set_model',
      sessionId,
      provider: chosen.provider,
      modelId: chosen.id,
    });
    await client.seen(
      (m) =>
        m.type === 'event' &&
        (m as { event?: { type?: string; modelId?: string } }).event?.type === 'model_changed' &&
        (m as { event: { modelId: string } }).event.modelId === chosen.id,
    );
    const unknown = await client.request({
      type: 'set_model',
      sessionId,
      provider: 'anthropic',
      modelId: 'no-such-model',
    });
    expect(unknown.ok).toBe(false);
  });

  it('an admin chooses the models in use, saved in settings.json as pi saves them; members get only those', async () => {
    const { server, cookies } = await tests.startTeam(
      { ada: 'admin', max: 'member' },
      {
        prepare: (dataDir) =>
          fs.writeFileSync(
            path.join(dataDir, 'settings.json'),
            JSON.stringify({ theme: 'dark', defaultThinkingLevel: 'low' }),
          ),
      },
    );
    const enabled = (method: string, who: 'ada' | 'max', body?: unknown) =>
      requestAs(server, cookies[who], method, '/api/models/enabled', body);
    const settingsFile = path.join(server.dataDir, 'settings.json');

    expect(await (await enabled('GET', 'max')).json()).toEqual({ patterns: null });
    expect((await enabled('PUT', 'max', { patterns: ['arbor/arbor-demo'] })).status).toBe(403);
    const typo = await enabled('PUT', 'ada', { patterns: ['arbor/arbor-demo', 'claude-sonet-9*'] });
    expect(typo.status).toBe(400);
    expect(await typo.text()).toContain('No model matches \\"claude-sonet-9*\\"');
    expect((await enabled('PUT', 'ada', { patterns: 'all' })).status).toBe(400);
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8')).enabledModels).toBeUndefined();

    const saved = await enabled('PUT', 'ada', {
      patterns: ['arbor/arbor-demo', 'anthropic/claude-sonnet-4*'],
    });
    expect(saved.status).toBe(200);
    const answer = (await saved.json()) as { models: number };
    expect(answer.models).toBeGreaterThan(1);
    // pi's other settings stay as they were.
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8'))).toEqual({
      theme: 'dark',
      defaultThinkingLevel: 'low',
      enabledModels: ['arbor/arbor-demo', 'anthropic/claude-sonnet-4*'],
    });
    expect(await (await enabled('GET', 'max')).json()).toEqual({
      patterns: ['arbor/arbor-demo', 'anthropic/claude-sonnet-4*'],
    });

    // A member's new session offers exactly those, finds only those, and may pick only those.
    const client = tests.track(await WsTestClient.open(server.wsUrl, { cookie: cookies.max }));
    const sessionId = await client.newSession(server.workspaceId);
    const snapshot = await snapshotOf(client, sessionId);
    expect(snapshot.models).toHaveLength(answer.models);
    for (const model of snapshot.models)
      expect(`${model.provider}/${model.id}`).toMatch(
        /^arbor\/arbor-demo$|(^|\/)anthropic\/claude-sonnet-4/,
      );
    const search = ModelListSchema.parse(
      await (
        await fetch(`${server.url}/api/models?q=gpt&limit=5`, { headers: { cookie: cookies.max } })
      ).json(),
    );
    expect(search.total).toBe(0);
    const refused = await client.request({
      type: 'set_model',
      sessionId,
      provider: 'openai',
      modelId: 'gpt-4o',
    });
    expect(refused.ok).toBe(false);

    // null puts every model in use again.
    expect((await enabled('PUT', 'ada', { patterns: null })).status).toBe(200);
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8')).enabledModels).toBeUndefined();
    expect(await (await enabled('GET', 'max')).json()).toEqual({ patterns: null });
  });

  it('a page open while the models in use change sees them at once; its session on a model taken out of use says so and waits', async () => {
    const { server, cookies } = await tests.startTeam({ ada: 'admin', max: 'member' });
    const client = tests.track(await WsTestClient.open(server.wsUrl, { cookie: cookies.max }));
    const sessionId = await client.newSession(server.workspaceId);
    await client.prompt(sessionId, 'hello');
    const onDemo = (m: Snapshot) => m.state.provider === 'arbor';
    expect(onDemo(await snapshotOf(client, sessionId))).toBe(true);

    const put = (patterns: string[] | null) =>
      requestAs(server, cookies.ada, 'PUT', '/api/models/enabled', { patterns });
    expect((await put(['anthropic/claude-sonnet-4*'])).status).toBe(200);
    const narrowed = (await client.seen(
      (m) =>
        m.type === 'snapshot' &&
        m.sessionId === sessionId &&
        m.models.every((model) => `${model.provider}/${model.id}`.includes('claude-sonnet-4')),
    )) as Snapshot;
    expect(narrowed.state.modelProblem).toMatch(/is not among the models in use on this server/);
    // Never moved to another model on its own; a prompt is refused with the reason.
    expect(onDemo(narrowed)).toBe(true);
    const refused = await client.request({ type: 'prompt', sessionId, text: 'again' });
    expect(refused).toMatchObject({ ok: false });
    expect(JSON.stringify(refused)).toMatch(/not among the models in use/);

    expect((await put(null)).status).toBe(200);
    const widened = (await client.seen(
      (m) =>
        m.type === 'snapshot' &&
        m.sessionId === sessionId &&
        m.models.some((model) => model.provider === 'arbor'),
      10_000,
    )) as Snapshot;
    expect(widened.state.modelProblem).toBeUndefined();
    await client.prompt(sessionId, 'and again');
  });

  it("remembers each user's recently chosen models on the server, newest first, only those in use", async () => {
    const { server, cookies } = await tests.startTeam({ ada: 'admin', max: 'member' });
    const recent = async (who: 'ada' | 'max') =>
      ModelListSchema.parse(
        await (await requestAs(server, cookies[who], 'GET', '/api/models/recent')).json(),
      ).models.map((m) => `${m.provider}/${m.id}`);
    expect(await recent('max')).toEqual([]);
    const client = tests.track(await WsTestClient.open(server.wsUrl, { cookie: cookies.max }));
    const sessionId = await client.newSession(server.workspaceId);
    for (const [provider, modelId] of [
      ['openai', 'gpt-4o'],
      ['anthropic', 'claude-sonnet-4-5'],
      ['openai', 'gpt-4o'],
    ] as const)
      await client.ok({ type: 'set_model', sessionId, provider, modelId });
    await expect
      .poll(() => recent('max'))
      .toEqual(['openai/gpt-4o', 'anthropic/claude-sonnet-4-5']);
    expect(await recent('ada')).toEqual([]);
    const file = JSON.parse(
      fs.readFileSync(path.join(server.dataDir, 'recent-models.json'), 'utf8'),
    );
    expect(file.users.max).toEqual(['openai/gpt-4o', 'anthropic/claude-sonnet-4-5']);
    // A model an admin took out of use is not offered again.
    const put = await requestAs(server, cookies.ada, 'PUT', '/api/models/enabled', {
      patterns: ['anthropic/*'],
    });
    expect(put.status).toBe(200);
    expect(await recent('max')).toEqual(['anthropic/claude-sonnet-4-5']);
  });
});
