import type { Api, Model } from '@earendil-works/pi-ai';
import type { ModelInfo } from './model-info.js';

/*
 * A catalog entry as pi-ai's model: what the stream function calls and what pi-ai's rules about a
 * model (thinking levels) are asked about.
 */

export const OPENAI_COMPLETIONS_API = 'openai-completions';

/** The catalog's entry as pi-ai's model. */
export function piModelOf(model: ModelInfo): Model<Api> {
  return {
    id: model.id,
    name: model.name,
    api: model.api ?? OPENAI_COMPLETIONS_API,
    provider: model.provider,
    baseUrl: model.baseUrl,
    reasoning: model.reasoning,
    ...(model.thinkingLevelMap ? { thinkingLevelMap: model.thinkingLevelMap } : {}),
    input: model.input,
    cost: model.cost,
    contextWindow: model.contextWindow,
    maxTokens: model.maxOutputTokens,
    ...(model.headers ? { headers: model.headers } : {}),
    ...(model.compat ? { compat: model.compat } : {}),
  } as Model<Api>;
}
