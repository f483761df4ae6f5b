import { findEnvKeys } from '@earendil-works/pi-ai/compat';
import { getBuiltinModels, getBuiltinProviders } from '@earendil-works/pi-ai/providers/all';
import { DEMO_MODEL_ID, DEMO_PROVIDER } from './demo-model-entry.js';
import type { ModelInfo } from './model-info.js';
import { OFFERED_APIS, SUPPORTED_API, thinkingMap, withText } from './pi-providers.js';

/*
 * pi's built-in catalog, as pi 1.6 ships it in pi-ai: every model of every provider pi knows
 * (~1,700), of which Arbor offers those whose API it offers (OFFERED_APIS) and whose endpoint is a
 * plain URL (a few of pi's are templates an extension fills in: Cloudflare's account, Vertex's
 * region; Azure's is per deployment). A pi user's `anthropic/claude-…` is then the same model in
 * Arbor, with pi's prices, windows, thinking maps and compat flags. The key of a built-in provider
 * is read from the variables pi-ai names for it (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY,
 * …), from the environment Arbor was given and nowhere else.
 */

/** The demo model, then pi's built-in catalog (pi-catalog.ts). */
export function builtInModels(demoBaseUrl: string, demoContextWindow: number): ModelInfo[] {
  return [
    {
      id: DEMO_MODEL_ID,
      name: 'Arbor demo model',
      provider: DEMO_PROVIDER,
      baseUrl: demoBaseUrl,
      contextWindow: demoContextWindow,
      maxOutputTokens: 4096,
      reasoning: false,
      // The demo model takes images (and answers without looking at them).
      input: ['text', 'image'],
      demo: true,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    },
    ...piBuiltInModels(),
  ];
}

/** pi's built-in models Arbor can call, as catalog entries, in pi's order. */
export function piBuiltInModels(): ModelInfo[] {
  const models: ModelInfo[] = [];
  for (const provider of getBuiltinProviders()) {
    for (const model of getBuiltinModels(provider)) {
      if (!OFFERED_APIS.has(model.api) || !/^https?:\/\/[^{}\s]+$/.test(model.baseUrl)) continue;
      const map = thinkingMap(model.thinkingLevelMap);
      models.push({
        id: model.id,
        name: model.name,
        provider: model.provider,
        ...(model.api !== SUPPORTED_API ? { api: model.api } : {}),
        baseUrl: model.baseUrl,
        ...(model.headers ? { headers: { ...model.headers } } : {}),
        contextWindow: model.contextWindow,
        maxOutputTokens: model.maxTokens,
        reasoning: model.reasoning,
        ...(map ? { thinkingLevelMap: map } : {}),
        input: withText(model.input),
        cost: {
          input: model.cost.input,
          output: model.cost.output,
          cacheRead: model.cost.cacheRead,
          cacheWrite: model.cost.cacheWrite,
        },
        ...(model.compat ? { compat: { ...(model.compat as Record<string, unknown>) } } : {}),
      });
    }
  }
  return models;
}

/** An environment in which every variable is set: pi-ai then names all it would read. */
const EVERY_VARIABLE = new Proxy({} as Record<string, string>, { get: () => 'set' });

/**
 * The environment variables pi reads a provider's API key from, in pi's order (empty for a
 * provider pi does not know). Anthropic's `ANTHROPIC_AUTH_TOKEN` is a bearer token pi-ai does not
 * send as a key, so it is left out, as pi-ai's `getEnvApiKey` leaves it.
 */
export function keyVariablesOf(provider: string): readonly string[] {
  let names = variablesByProvider.get(provider);
  if (!names) {
    names = (findEnvKeys(provider, EVERY_VARIABLE) ?? []).filter(
      (name) => name !== 'ANTHROPIC_AUTH_TOKEN',
    );
    variablesByProvider.set(provider, names);
  }
  return names;
}

const variablesByProvider = new Map<string, string[]>();

/** The provider's key from `env`, read as pi reads it (the first of its variables that is set). */
export function envKeyOf(
  provider: string,
  env: Record<string, string | undefined>,
): string | undefined {
  for (const name of keyVariablesOf(provider)) {
    const value = env[name];
    if (value) return value;
  }
  return undefined;
}
