import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelCatalog } from './model-catalog.js';
import { OFFERED_APIS } from './pi-providers.js';
import { parsePiConfigValue, resolvePiConfigValue } from './pi-config-value.js';
import { readModelsWithPi16, resolveWithPi16 } from '../store/test-support/pi16-oracle.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi-models-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A models.json as a pi 1.6 user has it (pi's docs/models.md and models-configuration.md). */
function piModelsJson(marker: string) {
  return {
    $schema: 'https://pi.dev/schemas/models.schema.json',
    providers: {
      ollama: {
        baseUrl: 'http://localhost:11434/v1',
        api: 'openai-completions',
        apiKey: 'ollama',
        models: [
          { id: 'qwen2.5-coder:7b' },
          {
            id: 'qwen3:32b',
            name: 'Qwen 3 32B',
            reasoning: true,
            thinkingLevelMap: { off: null, high: 'high', max: 'max' },
            input: ['text', 'image'],
            contextWindow: 40_960,
            maxTokens: 8192,
            cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
            compat: { supportsDeveloperRole: false },
          },
        ],
      },
      openrouter: {
        baseUrl: 'https://openrouter.ai/api/v1',
        api: 'openai-completions',
        apiKey: '${OPENROUTER_API_KEY}',
        models: [{ id: 'anthropic/claude-sonnet-4' }],
      },
      // A model added to a built-in provider of two APIs, naming neither API nor endpoint.
      fireworks: { models: [{ id: 'accounts/team/models/ours' }] },
      vllm: {
        baseUrl: 'http://gpu-box:8000/v1',
        api: 'openai-completions',
        apiKey: 'sk-$VLLM_TEAM-$$literal',
        models: [{ id: 'llama-3.3-70b' }],
      },
      vault: {
        baseUrl: 'http://vault-proxy:9000/v1',
        api: 'openai-completions',
        apiKey: `!touch ${marker} && echo from-a-command`,
        models: [{ id: 'vault-model' }],
      },
      azure: {
        baseUrl: 'https://example.openai.azure.com/openai/v1',
        api: 'openai-responses',
        apiKey: '$AZURE_KEY',
        models: [{ id: 'gpt-5-codex' }],
      },
      'my-anthropic': {
        baseUrl: 'https://proxy.example.com',
        api: 'anthropic-messages',
        models: [{ id: 'claude-opus-4' }],
      },
      anthropic: { baseUrl: 'https://anthropic-proxy.example.com/v1' },
      bedrock: {
        baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
        api: 'bedrock-converse-stream',
        models: [{ id: 'claude-on-bedrock' }],
      },
      gateway: {
        baseUrl: 'https://gateway.example.com/v1',
        api: 'openai-completions',
        headers: { 'x-team': '$TEAM' },
        models: [{ id: 'gateway-model' }],
      },
      signed: {
        baseUrl: 'https://signed.example.com/v1',
        api: 'openai-completions',
        models: [{ id: 'signed-model', headers: { 'x-signature': `!touch ${marker}` } }],
      },
      openai: {
        baseUrl: 'https://openai-proxy.example.com/v1',
        apiKey: '$MY_OPENAI_KEY',
        modelOverrides: { 'gpt-4o': { contextWindow: 64_000, cost: { input: 2 } } },
      },
    },
  };
}

function load(models: unknown, env: Record<string, string> = {}) {
  const dataDir = tempDir();
  fs.writeFileSync(path.join(dataDir, 'models.json'), JSON.stringify(models));
  return ModelCatalog.load({ dataDir, demoBaseUrl: 'http://127.0.0.1:1/demo/v1', env });
}

describe("pi's models.json (providers)", () => {
  it('offers the OpenAI-compatible models of every provider, with pi’s defaults', () => {
    const catalog = load(piModelsJson(path.join(tempDir(), 'ran')));
    expect(catalog.lookup('qwen2.5-coder:7b')).toMatchObject({
      provider: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
      name: 'qwen2.5-coder:7b',
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      reasoning: false,
      input: ['text'],
    });
    expect(catalog.lookup('qwen3:32b')).toMatchObject({
      name: 'Qwen 3 32B',
      reasoning: true,
      // pi 1.6's "max" is kept with the other levels (decision 061).
      thinkingLevelMap: { off: null, high: 'high', max: 'max' },
      input: ['text', 'image'],
      contextWindow: 40_960,
      maxOutputTokens: 8192,
      cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
    });
    expect(catalog.lookup('anthropic/claude-sonnet-4')?.provider).toBe('openrouter');
    expect(catalog.lookup('llama-3.3-70b')?.baseUrl).toBe('http://gpu-box:8000/v1');
    // Arbor's demo model stays, and the first model with a key becomes the default (013).
    expect(catalog.lookup('arbor-demo')?.demo).toBe(true);
    expect(catalog.defaultModel().id).toBe('qwen2.5-coder:7b');
  });

  it('resolves keys as pi does: literal, $NAME and ${NAME} from the environment, $$ as $', () => {
    const catalog = load(piModelsJson(path.join(tempDir(), 'ran')), {
      OPENROUTER_API_KEY: 'sk-or-secret',
      VLLM_TEAM: 'blue',
      MY_OPENAI_KEY: 'sk-proxy',
    });
    expect(catalog.apiKeyFor(catalog.lookup('qwen2.5-coder:7b')!)).toBe('ollama');
    expect(catalog.apiKeyFor(catalog.lookup('anthropic/claude-sonnet-4')!)).toBe('sk-or-secret');
    expect(catalog.apiKeyFor(catalog.lookup('llama-3.3-70b')!)).toBe('sk-blue-$literal');
    const publicText = JSON.stringify(catalog.publicInfo());
    expect(publicText).not.toContain('sk-or-secret');
    expect(publicText).not.toContain('OPENROUTER_API_KEY');
    expect(catalog.publicInfo().find((m) => m.id === 'anthropic/claude-sonnet-4')?.hasApiKey).toBe(
      true,
    );
  });

  it('leaves a model without a key when its variable is unset, as pi does', () => {
    const catalog = load(piModelsJson(path.join(tempDir(), 'ran')));
    expect(catalog.lookup('anthropic/claude-sonnet-4')).toBeDefined();
    expect(catalog.apiKeyFor(catalog.lookup('anthropic/claude-sonnet-4')!)).toBeUndefined();
  });

  it('changes Arbor’s OpenAI models as pi changes its built-in provider', () => {
    const catalog = load(piModelsJson(path.join(tempDir(), 'ran')), { MY_OPENAI_KEY: 'sk-proxy' });
    expect(catalog.lookup('openai/gpt-4o')).toMatchObject({
      provider: 'openai',
      baseUrl: 'https://openai-proxy.example.com/v1',
      contextWindow: 64_000,
      maxOutputTokens: 16_384,
      cost: { input: 2, output: 10, cacheRead: 1.25, cacheWrite: 0 },
    });
    expect(catalog.lookup('openai/gpt-5')?.baseUrl).toBe('https://openai-proxy.example.com/v1');
    expect(catalog.apiKeyFor(catalog.lookup('openai/gpt-5')!)).toBe('sk-proxy');
  });

  it('never runs a !command key, and says why the model is not offered', () => {
    const marker = path.join(tempDir(), 'ran');
    const catalog = load(piModelsJson(marker));
    expect(catalog.lookup('vault-model')).toBeUndefined();
    expect(catalog.apiKeyFor({ provider: 'vault', id: 'vault-model' })).toBeUndefined();
    expect(fs.existsSync(marker)).toBe(false);
    expect(catalog.unsupported()).toContainEqual({
      provider: 'vault',
      modelId: 'vault-model',
      reason: expect.stringContaining('which Arbor does not run'),
    });
  });

  it('lists what Arbor cannot drive with the reason instead of stopping', () => {
    const catalog = load(piModelsJson(path.join(tempDir(), 'ran')), { TEAM: 'blue-team' });
    const unsupported = catalog.unsupported();
    expect(
      unsupported.map(({ provider, modelId }) => `${provider}/${modelId ?? ''}`).sort(),
    ).toEqual(['bedrock/claude-on-bedrock', 'signed/signed-model', 'vault/vault-model']);
    const reason = (provider: string) => unsupported.find((u) => u.provider === provider)?.reason;
    expect(reason('bedrock')).toContain(
      '"bedrock-converse-stream" API, which Arbor does not offer yet',
    );
    // A built-in provider given only a baseUrl is routed there, as pi routes its own.
    const anthropic = catalog.list().filter((model) => model.provider === 'anthropic');
    expect(anthropic.length).toBeGreaterThan(5);
    for (const model of anthropic)
      expect(model.baseUrl).toBe('https://anthropic-proxy.example.com/v1');
    expect(reason('signed')).toContain('"x-signature" header from a command');
    // Headers are sent, their variables filled in as pi fills them.
    expect(catalog.get('gateway', 'gateway-model')?.headers).toEqual({ 'x-team': 'blue-team' });
    for (const { modelId } of unsupported)
      if (modelId) expect(catalog.lookup(modelId)).toBeUndefined();
  });

  it('keeps Arbor’s own form working beside pi’s, one file holding both', () => {
    const catalog = load({
      ...piModelsJson(path.join(tempDir(), 'ran')),
      defaultModel: 'llama3',
      models: [
        { id: 'qwen3:32b', contextWindow: 32_768 },
        {
          id: 'llama3',
          provider: 'lmstudio',
          baseUrl: 'http://127.0.0.1:1234/v1',
          contextWindow: 8192,
          maxOutputTokens: 2048,
          apiKey: 'lm',
        },
      ],
    });
    expect(catalog.defaultModel().id).toBe('llama3');
    expect(catalog.apiKeyFor(catalog.lookup('llama3')!)).toBe('lm');
    expect(catalog.lookup('qwen3:32b')).toMatchObject({
      provider: 'ollama',
      contextWindow: 32_768,
    });
  });

  it('offers the same id of two providers as two models, each with its own endpoint and key', () => {
    const catalog = load({
      providers: {
        ollama: {
          baseUrl: 'http://a/v1',
          api: 'openai-completions',
          apiKey: 'key-a',
          models: [{ id: 'qwen3' }],
        },
        lmstudio: {
          baseUrl: 'http://b/v1',
          api: 'openai-completions',
          apiKey: 'key-b',
          models: [{ id: 'qwen3' }],
        },
      },
    });
    const a = catalog.get('ollama', 'qwen3')!;
    const b = catalog.get('lmstudio', 'qwen3')!;
    expect([a.baseUrl, catalog.apiKeyFor(a)]).toEqual(['http://a/v1', 'key-a']);
    expect([b.baseUrl, catalog.apiKeyFor(b)]).toEqual(['http://b/v1', 'key-b']);
    expect(catalog.unsupported()).toEqual([]);
    // The bare id names no one model; the text form does.
    expect(catalog.lookup('qwen3')).toBeUndefined();
    expect(catalog.lookup('lmstudio/qwen3')).toBe(b);
  });

  it('takes a key pi knows for the provider from the environment (ANTHROPIC_API_KEY, …), as pi does', () => {
    const catalog = load(
      {
        providers: {
          anthropic: {
            baseUrl: 'https://api.anthropic.com',
            api: 'anthropic-messages',
            models: [{ id: 'claude-sonnet-4-5' }],
          },
          mine: { baseUrl: 'http://a/v1', api: 'openai-completions', models: [{ id: 'x' }] },
        },
      },
      { ANTHROPIC_API_KEY: 'sk-ant-from-env', OPENAI_API_KEY: 'sk-openai' },
    );
    expect(catalog.apiKeyFor({ provider: 'anthropic', id: 'claude-sonnet-4-5' })).toBe(
      'sk-ant-from-env',
    );
    // A provider pi does not know gets no one else's key.
    expect(catalog.apiKeyFor({ provider: 'mine', id: 'x' })).toBeUndefined();
  });

  it('reports a provider entry it cannot read instead of stopping', () => {
    const catalog = load({
      providers: {
        broken: { baseUrl: 42, models: [{ id: 'x' }] },
        half: {
          baseUrl: 'http://c/v1',
          api: 'openai-completions',
          models: [{ name: 'no id' }, { id: 'ok' }],
        },
      },
    });
    expect(catalog.lookup('ok')?.provider).toBe('half');
    expect(
      catalog
        .unsupported()
        .map((u) => u.provider)
        .sort(),
    ).toEqual(['broken', 'half']);
  });
});

describe("pi's models.json, read by pi 1.6 and by Arbor", () => {
  it('offers each model of an API Arbor offers as pi has it, with pi’s key', async () => {
    const file = piModelsJson('unused');
    // pi would run the command key to answer; the rest of the file is asked as it is.
    const { vault: _vault, signed: _signed, ...providers } = file.providers;
    const agentDir = tempDir();
    fs.writeFileSync(path.join(agentDir, 'models.json'), JSON.stringify({ ...file, providers }));
    const env = {
      OPENROUTER_API_KEY: 'sk-or-secret',
      VLLM_TEAM: 'blue',
      MY_OPENAI_KEY: 'sk-proxy',
      TEAM: 'blue-team',
    };
    const pi = await readModelsWithPi16(agentDir, Object.keys(providers), env);
    expect(pi.error).toBeNull();
    const catalog = ModelCatalog.load({ dataDir: agentDir, env });

    const declared = Object.entries(providers).flatMap(([provider, entry]) =>
      ('models' in entry ? entry.models : []).map((model) => ({ provider, id: model.id })),
    );
    expect(declared.length).toBeGreaterThan(5);
    for (const { provider, id } of declared) {
      const theirs = pi.models.find((m) => m.provider === provider && m.id === id);
      expect(theirs, `pi has ${provider}/${id}`).toBeDefined();
      const ours = catalog.get(provider, id);
      const drivable = OFFERED_APIS.has(theirs!.api);
      if (!drivable) {
        expect(ours, `${provider}/${id} is not offered`).toBeUndefined();
        expect(catalog.unsupported()).toContainEqual(
          expect.objectContaining({ provider, modelId: id }),
        );
        continue;
      }
      const levels = Object.entries(theirs!.thinkingLevelMap ?? {});
      // pi keeps a provider's headers apart from its models (resolved per request); Arbor's are
      // checked on their own above.
      const { headers: _headers, ...comparable } = ours ?? {};
      expect(comparable, `${provider}/${id}`).toEqual({
        id,
        provider,
        ...(theirs!.api !== 'openai-completions' ? { api: theirs!.api } : {}),
        name: theirs!.name,
        baseUrl: theirs!.baseUrl,
        contextWindow: theirs!.contextWindow,
        maxOutputTokens: theirs!.maxTokens,
        reasoning: theirs!.reasoning,
        input: theirs!.input,
        cost: theirs!.cost,
        ...(levels.length > 0 ? { thinkingLevelMap: Object.fromEntries(levels) } : {}),
        ...(theirs!.compat ? { compat: theirs!.compat } : {}),
      });
      expect(catalog.apiKeyFor({ provider, id }) ?? null, `key of ${provider}/${id}`).toBe(
        theirs!.apiKey,
      );
    }

    // The openai provider routed through a proxy, with an override, as pi changes its own.
    const gpt4o = pi.models.find((m) => m.provider === 'openai' && m.id === 'gpt-4o');
    expect(gpt4o).toMatchObject({
      baseUrl: 'https://openai-proxy.example.com/v1',
      apiKey: 'sk-proxy',
    });
    expect(catalog.lookup('openai/gpt-4o')).toMatchObject({
      baseUrl: gpt4o!.baseUrl,
      contextWindow: gpt4o!.contextWindow,
      cost: expect.objectContaining({ input: gpt4o!.cost.input }),
    });
    expect(catalog.apiKeyFor(catalog.lookup('openai/gpt-4o')!)).toBe(gpt4o!.apiKey);
  });
});

describe("pi's config values", () => {
  const cases: [string, Record<string, string>][] = [
    ['literal', {}],
    ['OPENAI_API_KEY', { OPENAI_API_KEY: 'from-env' }],
    ['$KEY', { KEY: 'v' }],
    ['${KEY}-x', { KEY: 'v' }],
    ['pre-$KEY_2/$OTHER', { KEY_2: 'a', OTHER: 'b' }],
    ['a$$b$!c', {}],
    ['$MISSING', {}],
    ['$EMPTY', { EMPTY: '' }],
    ['${not a name}', {}],
    ['${OPEN', {}],
    ['cost: $5 $', {}],
  ];

  it.each(cases)('%s resolves exactly as pi 1.6 resolves it', async (value, env) => {
    const [fromPi] = await resolveWithPi16([value], env);
    expect(resolvePiConfigValue(parsePiConfigValue(value), env) ?? null).toBe(fromPi);
  });

  it('a plain variable name is a literal in pi 1.6, and $NAME reads the variable', async () => {
    const env = { OPENAI_API_KEY: 'from-env' };
    expect(await resolveWithPi16(['OPENAI_API_KEY', '$OPENAI_API_KEY'], env)).toEqual([
      'OPENAI_API_KEY',
      'from-env',
    ]);
    expect(resolvePiConfigValue(parsePiConfigValue('$OPENAI_API_KEY'), env)).toBe('from-env');
  });

  it('a command value is never resolved', () => {
    expect(resolvePiConfigValue(parsePiConfigValue('!echo hi'), {})).toBeUndefined();
  });
});
