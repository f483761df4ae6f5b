import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getBuiltinProviders } from '@earendil-works/pi-ai/providers/all';
import { afterAll, describe, expect, it } from 'vitest';
import { readModelsWithPi16 } from '../store/test-support/pi16-oracle.js';
import { ModelCatalog } from './model-catalog.js';
import { keyVariablesOf } from './pi-catalog.js';
import { OFFERED_APIS } from './pi-providers.js';

/*
 * pi's built-in catalog in Arbor, model by model against pi 1.6's own ModelRuntime with no
 * models.json: the same fields and the same key from the same environment, for every model of an
 * API Arbor offers; the others (Bedrock, Vertex, …) are not offered, never half-offered.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

// A key for some providers, by pi's variable names, so both sides must find the same ones.
const ENV = {
  OPENAI_API_KEY: 'sk-openai',
  ANTHROPIC_API_KEY: 'sk-anthropic',
  GEMINI_API_KEY: 'g-key',
  OPENROUTER_API_KEY: 'sk-or',
  GROQ_API_KEY: 'gsk',
};

describe("pi's built-in catalog", () => {
  it('offers every model of an API Arbor offers as pi 1.6 has it, with the key pi would send', async () => {
    const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi-catalog-'));
    dirs.push(agentDir);
    const pi = await readModelsWithPi16(agentDir, getBuiltinProviders(), ENV);
    expect(pi.error).toBeNull();
    expect(pi.models.length).toBeGreaterThan(1000);
    const catalog = ModelCatalog.load({ dataDir: agentDir, env: ENV });

    let offered = 0;
    for (const theirs of pi.models) {
      const what = `${theirs.provider}/${theirs.id}`;
      const ours = catalog.get(theirs.provider, theirs.id);
      if (!OFFERED_APIS.has(theirs.api) || !/^https?:\/\/[^{}]+$/.test(theirs.baseUrl)) {
        expect(ours, `${what} (${theirs.api}) is not offered`).toBeUndefined();
        continue;
      }
      offered++;
      const levels = Object.entries(theirs.thinkingLevelMap ?? {});
      expect(ours, what).toEqual({
        id: theirs.id,
        provider: theirs.provider,
        ...(theirs.api !== 'openai-completions' ? { api: theirs.api } : {}),
        name: theirs.name,
        baseUrl: theirs.baseUrl,
        contextWindow: theirs.contextWindow,
        maxOutputTokens: theirs.maxTokens,
        reasoning: theirs.reasoning,
        input: theirs.input,
        cost: {
          input: theirs.cost.input,
          output: theirs.cost.output,
          cacheRead: theirs.cost.cacheRead,
          cacheWrite: theirs.cost.cacheWrite,
        },
        ...(levels.length > 0 ? { thinkingLevelMap: Object.fromEntries(levels) } : {}),
        ...(theirs.compat ? { compat: theirs.compat } : {}),
        ...(theirs.headers ? { headers: theirs.headers } : {}),
      });
      expect(catalog.apiKeyFor(ours!) ?? null, `key of ${what}`).toBe(theirs.apiKey);
    }
    expect(offered).toBeGreaterThan(1000);
  });

  it('says which variable to set for a provider without a key, and offers its models once set', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi-catalog-'));
    dirs.push(dataDir);
    const bare = ModelCatalog.load({ dataDir, env: {} });
    const claude = bare.list().find((model) => model.provider === 'anthropic')!;
    expect(keyVariablesOf('anthropic')).toContain('ANTHROPIC_API_KEY');
    expect(bare.missingKeyReason(claude)).toBe(
      'No API key: set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY, or save a key for anthropic',
    );
    // A first run offers the demo model and a few of OpenAI's (saying they lack a key), not ~1,300.
    const first = bare.offered();
    expect(first.some((model) => model.demo)).toBe(true);
    expect(first.some((model) => model.provider === 'anthropic')).toBe(false);
    expect(first.length).toBeLessThan(20);
    expect(bare.search('claude', 5).models).toHaveLength(5);
    const found = bare.search('Anthropic  CLAUDE', 2000);
    expect(found.total).toBe(found.models.length);
    expect(found.models.some((model) => model.provider === 'anthropic')).toBe(true);
    for (const model of found.models)
      expect(`${model.provider}/${model.id} ${model.name}`.toLowerCase()).toMatch(
        /^(?=.*anthropic)(?=.*claude)/,
      );
    expect(bare.search('claude', 3).total).toBeGreaterThanOrEqual(found.total);

    const keyed = ModelCatalog.load({ dataDir, env: { ANTHROPIC_API_KEY: 'sk-a' } });
    const offered = keyed.offered().filter((model) => model.provider === 'anthropic');
    expect(offered.length).toBe(keyed.list().filter((m) => m.provider === 'anthropic').length);
    expect(keyed.missingKeyReason(claude)).toBeUndefined();
  });
});
