import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readModelsWithPi16, renewWithPi16 } from '../store/test-support/pi16-oracle.js';
import { ModelCatalog } from './model-catalog.js';
import { piAiStream } from './pi-ai-stream.js';
import { drainStream } from './test-support/drain-stream.js';
import { startRecordingModel, type RecordingModel } from './test-support/recording-model.js';

/*
 * A Claude Pro/Max subscription pi signed in to, used by Arbor as pi uses it: its token sent as
 * pi-ai sends a subscription's, renewed when about to expire under pi's own lock on auth.json,
 * and never renewed twice when pi 1.6 renews it at the same moment. The model server and
 * Anthropic's token endpoint are servers on loopback; the token endpoint's address is the one
 * thing redirected (pi-ai names Anthropic's own).
 */

const CLAUDE = { provider: 'anthropic', id: 'claude-sonnet-4-5' };
const TOKEN_ORIGIN = 'https://platform.claude.com';
const HOUR = 3_600_000;

let model: RecordingModel;
let tokens: { server: http.Server; url: string; bodies: Record<string, unknown>[] };
let answer: { status: number; body: unknown };
let dir: string;

beforeAll(async () => {
  model = await startRecordingModel();
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tokens = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
});
afterAll(async () => {
  await model.close();
  await new Promise((resolve) => tokens.server.close(resolve));
});

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-oauth-'));
  // pi's models.json pointing the built-in provider at the model server, as a proxy would.
  fs.writeFileSync(
    path.join(dir, 'models.json'),
    JSON.stringify({ providers: { anthropic: { baseUrl: model.baseUrl('anthropic-messages') } } }),
  );
  tokens.bodies.length = 0;
  model.script.length = 0;
  answer = {
    status: 200,
    body: { access_token: 'sk-ant-oat01-renewed', refresh_token: 'rt-2', expires_in: 28_800 },
  };
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin !== TOKEN_ORIGIN)
      return Promise.reject(new Error(`no network in this test: ${url.href}`));
    return realFetch(`${tokens.url}${url.pathname}`, init);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fs.rmSync(dir, { recursive: true, force: true });
});

function saveSubscription(expires: number, extra: Record<string, unknown> = {}): string {
  const file = path.join(dir, 'auth.json');
  const saved = {
    anthropic: { type: 'oauth', access: 'sk-ant-oat01-first', refresh: 'rt-1', expires },
    ...extra,
  };
  fs.writeFileSync(file, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return file;
}

const catalog = () => ModelCatalog.load({ dataDir: dir, env: {} });

async function ask(from: ModelCatalog) {
  const info = from.get(CLAUDE.provider, CLAUDE.id)!;
  const sent = model.requests.length;
  model.script.push({ text: 'Hello from Claude.' });
  const { outcome } = await drainStream(
    piAiStream({
      model: info,
      auth: await from.requestAuth(info),
      systemPrompt: 'You are a test.',
      messages: [{ role: 'user', content: 'Hi', timestamp: Date.now() }],
      tools: [],
      thinkingLevel: 'off',
      signal: new AbortController().signal,
    }),
  );
  return { outcome, request: model.requests[sent] };
}

describe('a subscription pi signed in to', () => {
  it("sends the subscription's token as pi does, and never shows it", async () => {
    saveSubscription(Date.now() + HOUR);
    const models = catalog();
    expect(models.missingKeyReason(CLAUDE)).toBeUndefined();
    expect(models.offered().some((m) => m.provider === 'anthropic')).toBe(true);
    const shown = models.publicInfo().find((m) => m.provider === 'anthropic' && m.id === CLAUDE.id);
    expect(shown?.hasApiKey).toBe(true);
    expect(JSON.stringify(models.publicInfo())).not.toContain('sk-ant-oat01');

    const { outcome, request } = await ask(models);
    expect(outcome.message.errorMessage).toBeUndefined();
    expect(outcome.message.content).toEqual([{ type: 'text', text: 'Hello from Claude.' }]);
    // pi-ai's subscription request: a bearer token and the OAuth beta, never an API key header.
    expect(request?.headers.authorization).toBe('Bearer sk-ant-oat01-first');
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(String(request?.headers['anthropic-beta'])).toContain('oauth-2025-04-20');
    expect(tokens.bodies).toHaveLength(0);
  });

  it("renews a token about to expire once, under pi's lock, where pi 1.6 reads it", async () => {
    const file = saveSubscription(Date.now() + 60_000, {
      openai: { type: 'api_key', key: 'sk-kept' },
    });
    const models = catalog();
    const [first, second] = await Promise.all([
      models.requestAuth(CLAUDE),
      catalog().requestAuth(CLAUDE),
    ]);
    expect(first).toEqual({ apiKey: 'sk-ant-oat01-renewed' });
    expect(second).toEqual({ apiKey: 'sk-ant-oat01-renewed' });
    // One refresh for both: the second took what the first saved (a refresh token is single-use).
    expect(tokens.bodies).toEqual([
      expect.objectContaining({ grant_type: 'refresh_token', refresh_token: 'rt-1' }),
    ]);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(saved.anthropic).toMatchObject({
      type: 'oauth',
      access: 'sk-ant-oat01-renewed',
      refresh: 'rt-2',
    });
    expect(saved.anthropic!.expires).toBeGreaterThan(Date.now() + HOUR);
    expect(saved.openai).toEqual({ type: 'api_key', key: 'sk-kept' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const { request } = await ask(models);
    expect(request?.headers.authorization).toBe('Bearer sk-ant-oat01-renewed');
    const pi = await readModelsWithPi16(dir, ['anthropic'], {});
    expect(pi.models.find((m) => m.id === CLAUDE.id)?.apiKey).toBe('sk-ant-oat01-renewed');
  });

  it('waits while pi 1.6 renews it, and takes the token pi saved', async () => {
    const file = saveSubscription(Date.now() + 60_000);
    const fromPi = {
      type: 'oauth',
      access: 'sk-ant-oat01-by-pi',
      refresh: 'rt-pi',
      expires: Date.now() + 8 * HOUR,
    };
    const pi = await renewWithPi16(file, 'anthropic', 1_500, fromPi);
    const auth = await catalog().requestAuth(CLAUDE);
    await pi.done;
    expect(auth).toEqual({ apiKey: 'sk-ant-oat01-by-pi' });
    expect(tokens.bodies).toHaveLength(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).anthropic).toEqual(fromPi);
  });

  it('says to sign in again when the provider refuses to renew, and keeps the saved tokens', async () => {
    const file = saveSubscription(Date.now() - 1_000);
    const before = fs.readFileSync(file, 'utf8');
    answer = { status: 400, body: { error: 'invalid_grant' } };
    const sent = model.requests.length;
    const { outcome } = await ask(catalog());
    expect(outcome.message.stopReason).toBe('error');
    expect(outcome.message.errorMessage).toMatch(
      /^The Anthropic \(Claude Pro\/Max\) sign-in could not be renewed \(.*invalid_grant.*\): sign in again with pi \(\/login\)$/,
    );
    expect(outcome.message.errorMessage).not.toContain('stack=');
    expect(model.requests.length - sent, 'nothing reached the model').toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });
});
