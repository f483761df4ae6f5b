import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelCatalog, ModelConfigError, costOf } from './model-catalog.js';

const dirs: string[] = [];
function dataDir(models?: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-models-'));
  dirs.push(dir);
  if (models !== undefined)
    fs.writeFileSync(
      path.join(dir, 'models.json'),
      typeof models === 'string' ? models : JSON.stringify(models),
    );
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('model catalog', () => {
  it('defaults to the demo model when nothing else is configured', () => {
    const catalog = ModelCatalog.load({
      dataDir: dataDir(),
      demoBaseUrl: 'http://x/demo/v1',
      env: {},
    });
    const model = catalog.defaultModel();
    expect(model.demo).toBe(true);
    expect(model.baseUrl).toBe('http://x/demo/v1');
    expect(catalog.lookup('openai/gpt-4o')?.contextWindow).toBe(128_000);
  });

  it('merges models.json: overrides built-ins field by field and adds new endpoints', () => {
    const catalog = ModelCatalog.load({
      dataDir: dataDir({
        models: [
          { id: 'gpt-4o', contextWindow: 64_000 },
          {
            id: 'llama3',
            provider: 'ollama',
            baseUrl: 'http://127.0.0.1:11434/v1',
            contextWindow: 8192,
            maxOutputTokens: 2048,
            apiKey: 'secret-local-key',
          },
        ],
      }),
      env: {},
    });
    expect(catalog.lookup('openai/gpt-4o')).toMatchObject({
      contextWindow: 64_000,
      maxOutputTokens: 16_384,
    });
    expect(catalog.lookup('llama3')?.provider).toBe('ollama');
    expect(catalog.defaultModel().id).toBe('llama3');
    expect(catalog.apiKeyFor(catalog.lookup('llama3')!)).toBe('secret-local-key');
  });

  it('resolves keys from the environment and never exposes them publicly', () => {
    const catalog = ModelCatalog.load({
      dataDir: dataDir({
        models: [
          {
            id: 'router',
            provider: 'openrouter',
            baseUrl: 'https://openrouter.ai/api/v1',
            contextWindow: 1000,
            maxOutputTokens: 100,
            apiKeyEnv: 'ROUTER_KEY',
          },
          {
            id: 'filekey',
            provider: 'x',
            baseUrl: 'http://h/v1',
            contextWindow: 1000,
            maxOutputTokens: 100,
            apiKey: 'file-secret',
          },
        ],
      }),
      env: { OPENAI_API_KEY: 'sk-env-secret', ROUTER_KEY: 'router-secret' },
    });
    expect(catalog.apiKeyFor(catalog.lookup('openai/gpt-4o')!)).toBe('sk-env-secret');
    expect(catalog.apiKeyFor(catalog.lookup('router')!)).toBe('router-secret');
    const publicText = JSON.stringify(catalog.publicInfo());
    for (const secret of ['sk-env-secret', 'router-secret', 'file-secret', 'ROUTER_KEY'])
      expect(publicText).not.toContain(secret);
    expect(catalog.publicInfo().find((m) => m.id === 'gpt-4o')?.hasApiKey).toBe(true);
  });

  it('says why a model has no key, naming what to set and never a key', () => {
    const catalog = ModelCatalog.load({
      dataDir: dataDir({
        models: [
          {
            id: 'router',
            provider: 'openrouter',
            baseUrl: 'https://openrouter.ai/api/v1',
            contextWindow: 1000,
            maxOutputTokens: 100,
            apiKeyEnv: 'ROUTER_KEY',
          },
          {
            id: 'bare',
            provider: 'x',
            baseUrl: 'http://h/v1',
            contextWindow: 1000,
            maxOutputTokens: 100,
          },
          {
            id: 'filekey',
            provider: 'x',
            baseUrl: 'http://h/v1',
            contextWindow: 1000,
            maxOutputTokens: 100,
            apiKey: 'file-secret',
          },
        ],
      }),
      env: {},
    });
    expect(catalog.missingKeyReason(catalog.lookup('router')!)).toBe(
      'No API key: set ROUTER_KEY or add "apiKey" to models.json',
    );
    expect(catalog.missingKeyReason(catalog.lookup('openai/gpt-4o')!)).toContain('OPENAI_API_KEY');
    expect(catalog.missingKeyReason(catalog.lookup('bare')!)).toContain('"apiKey"');
    expect(catalog.missingKeyReason(catalog.lookup('filekey')!)).toBeUndefined();
    expect(catalog.missingKeyReason(catalog.lookup('arbor-demo')!)).toBeUndefined();
  });

  it('never sends the OpenAI key to another endpoint a built-in entry was pointed at', () => {
    const catalog = ModelCatalog.load({
      dataDir: dataDir({
        models: [
          { id: 'gpt-4o', baseUrl: 'http://proxy.example/v1' },
          {
            id: 'mine',
            provider: 'openai',
            baseUrl: 'http://other/v1',
            contextWindow: 8000,
            maxOutputTokens: 1000,
          },
        ],
      }),
      env: { OPENAI_API_KEY: 'sk-secret' },
    });
    expect(catalog.apiKeyFor(catalog.lookup('openai/gpt-4o')!)).toBeUndefined();
    expect(catalog.apiKeyFor(catalog.lookup('mine')!)).toBeUndefined();
    expect(catalog.apiKeyFor(catalog.lookup('openai/gpt-4.1')!)).toBe('sk-secret');
  });

  it('explains what is wrong with a bad models.json', () => {
    expect(() => ModelCatalog.load({ dataDir: dataDir('{ not json'), env: {} })).toThrow(
      /not valid JSON/,
    );
    expect(() =>
      ModelCatalog.load({
        dataDir: dataDir({ models: [{ id: 'x', contextWindow: -5 }] }),
        env: {},
      }),
    ).toThrow(/models\.0\.contextWindow/);
    expect(() =>
      ModelCatalog.load({ dataDir: dataDir({ models: [{ id: 'new-model' }] }), env: {} }),
    ).toThrow(ModelConfigError);
    expect(() =>
      ModelCatalog.load({ dataDir: dataDir({ defaultModel: 'nope' }), env: {} }),
    ).toThrow(/defaultModel "nope"/);
    expect(() =>
      ModelCatalog.load({ dataDir: dataDir({ models: [], extra: 1 }), env: {} }),
    ).toThrow(/extra/);
  });

  it('prices usage per million tokens', () => {
    const catalog = ModelCatalog.load({ dataDir: dataDir(), env: {} });
    const cost = costOf(catalog.lookup('openai/gpt-4o')!, {
      input: 1_000_000,
      output: 500_000,
      cacheRead: 200_000,
      cacheWrite: 0,
    });
    expect(cost.input).toBeCloseTo(2.5);
    expect(cost.output).toBeCloseTo(5);
    expect(cost.cacheRead).toBeCloseTo(0.25);
    expect(cost.total).toBeCloseTo(7.75);
  });
  it('reads what a model can take: images and thinking levels, with pi’s defaults', () => {
    const catalog = ModelCatalog.load({
      dataDir: dataDir({
        models: [
          { id: 'gpt-5', thinkingLevelMap: { xhigh: 'xhigh' } },
          { id: 'gpt-4o', input: ['text'] },
          {
            id: 'local',
            provider: 'ollama',
            baseUrl: 'http://127.0.0.1:11434/v1',
            contextWindow: 8192,
            maxOutputTokens: 2048,
            reasoning: true,
            thinkingLevelMap: { off: 'none', minimal: null },
          },
        ],
      }),
      env: {},
    });
    expect(catalog.lookup('openai/gpt-5')?.thinkingLevelMap).toMatchObject({
      off: null,
      xhigh: 'xhigh',
    });
    expect(catalog.lookup('openai/gpt-5')?.input).toEqual(['text', 'image']);
    expect(catalog.lookup('openai/gpt-4o')?.input).toEqual(['text']);
    expect(catalog.lookup('local')).toMatchObject({
      input: ['text'],
      thinkingLevelMap: { off: 'none', minimal: null },
    });
    expect(catalog.lookup('arbor-demo')?.input).toEqual(['text', 'image']);
  });

  it.each([
    [{ id: 'gpt-4o', input: ['image'] }, /models\.0\.input: must include "text"/],
    [{ id: 'gpt-4o', input: ['audio'] }, /models\.0\.input\.0/],
    [{ id: 'gpt-5', thinkingLevelMap: { ultra: 'max' } }, /models\.0\.thinkingLevelMap/],
    [{ id: 'gpt-5', thinkingLevelMap: { high: 3 } }, /models\.0\.thinkingLevelMap\.high/],
  ])('refuses a bad capability entry %j with a message naming the field', (entry, message) => {
    const dir = dataDir({ models: [entry] });
    expect(() => ModelCatalog.load({ dataDir: dir, env: {} })).toThrow(ModelConfigError);
    expect(() => ModelCatalog.load({ dataDir: dir, env: {} })).toThrow(message);
  });
});
