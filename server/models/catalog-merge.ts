import { z } from 'zod';
import { ThinkingLevelSchema } from '../../shared/session-entries.js';
import { CodedError } from '../errors/coded-error.js';
import type { ModelInfo } from './model-info.js';
import type { PiConfigValue } from './pi-config-value.js';
import {
  readPiProviders,
  SUPPORTED_API,
  type BuiltInProvider,
  type UnsupportedModel,
} from './pi-providers.js';

/*
 * How a models.json changes the catalog being loaded: pi's form (`providers`) merged as pi merges
 * it with its built-ins, then Arbor's older form (`models`), whose entries refine a built-in model
 * or add an endpoint. model-catalog.ts loads the files and answers questions about the result.
 */

export class ModelConfigError extends CodedError {
  readonly code = 'model_config_invalid';
}

const CostSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().default(0),
  cacheWrite: z.number().nonnegative().default(0),
});

export const ModelEntrySchema = z.strictObject({
  id: z.string().trim().min(1),
  name: z.string().min(1).optional(),
  provider: z.string().min(1).optional(),
  baseUrl: z.url().optional(),
  apiKey: z.string().min(1).optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  reasoning: z.boolean().optional(),
  thinkingLevelMap: z.partialRecord(ThinkingLevelSchema, z.string().min(1).nullable()).optional(),
  input: z
    .array(z.enum(['text', 'image']))
    .refine((input) => input.includes('text'), 'must include "text"')
    .optional(),
  cost: CostSchema.optional(),
});
type ModelEntry = z.infer<typeof ModelEntrySchema>;

/**
 * The provider an entry of Arbor's older form means when it names none: OpenAI's, where it has a
 * model of that id (that form knew only OpenAI's models), else the one provider offering it.
 */
export const LEGACY_PROVIDER = 'openai';

/** The catalog's key of a model: its provider and id (a provider's id may hold a `/`). */
export function keyOf(provider: string, id: string): string {
  return `${provider}\u0000${id}`;
}

/** What `load` gathers before the default model is chosen. All maps are keyed by `keyOf`. */
export interface CatalogParts {
  models: Map<string, ModelInfo>;
  /** Literal keys of Arbor's form. */
  keys: Map<string, string>;
  /** pi-form keys (literal with `$NAME`s), resolved per call. */
  piKeys: Map<string, PiConfigValue>;
  unsupported: UnsupportedModel[];
  /** Models the file added or changed, in file order (the default is chosen among them). */
  configured: string[];
  /** Built-in models an entry pointed at another endpoint: their provider's variable stays home. */
  noEnvKey: Set<string>;
}

/**
 * Each built-in provider's API and endpoint for a model pi's file adds to it without naming them:
 * as pi's `findModelDefaults`, those of its first Chat Completions model, else of its first model
 * (OpenRouter, Fireworks and others offer models of two APIs at two endpoints).
 */
function builtInProviders(models: Iterable<ModelInfo>): Map<string, BuiltInProvider> {
  const providers = new Map<string, BuiltInProvider>();
  for (const model of models) {
    if (model.demo) continue;
    const api = model.api ?? SUPPORTED_API;
    const known = providers.get(model.provider);
    if (!known || (known.api !== SUPPORTED_API && api === SUPPORTED_API))
      providers.set(model.provider, { api, baseUrl: model.baseUrl });
  }
  return providers;
}

/** Adds pi's `providers` to the catalog being built, as pi merges them with its built-ins. */
export function mergePiProviders(
  parts: CatalogParts,
  providers: Record<string, unknown>,
  env: Record<string, string | undefined>,
): void {
  const read = readPiProviders(providers, env, builtInProviders(parts.models.values()));
  parts.unsupported.push(...read.unsupported);
  for (const change of read.changes) {
    for (const model of parts.models.values()) {
      if (model.provider !== change.provider) continue;
      const override = change.overrides.get(model.id);
      const next: ModelInfo = {
        ...model,
        ...override,
        ...(change.baseUrl !== undefined ? { baseUrl: change.baseUrl } : {}),
        ...(change.headers || override?.headers
          ? { headers: { ...model.headers, ...change.headers, ...override?.headers } }
          : {}),
        // As pi: an override's object fields merge with the model's field by field.
        ...(override?.cost ? { cost: { ...model.cost, ...override.cost } } : {}),
        ...(override?.thinkingLevelMap
          ? { thinkingLevelMap: { ...model.thinkingLevelMap, ...override.thinkingLevelMap } }
          : {}),
      };
      const at = keyOf(model.provider, model.id);
      parts.models.set(at, next);
      if (change.key) parts.piKeys.set(at, change.key);
      // Routing a provider through a proxy picks none of its models; an override names one (013).
      if (override) parts.configured.push(at);
    }
  }
  for (const { info, key } of read.models) {
    const at = keyOf(info.provider, info.id);
    // pi reaching Arbor's demo model by its own names: Arbor's built-in entry stays.
    if (parts.models.get(at)?.demo) continue;
    parts.models.set(at, info);
    parts.keys.delete(at);
    if (key) parts.piKeys.set(at, key);
    else parts.piKeys.delete(at);
    parts.configured.push(at);
  }
}

/**
 * Adds one entry of Arbor's form (`models[index]`) to the catalog being built; throws
 * `ModelConfigError` naming `source` and the field on bad input.
 */
export function mergeArborEntry(
  parts: CatalogParts,
  entry: ModelEntry,
  index: number,
  source: string,
): void {
  // An entry names its provider, or refines OpenAI's model of that id, or the one model of it.
  const legacy = parts.models.get(keyOf(LEGACY_PROVIDER, entry.id));
  const sameId = legacy ? [legacy] : [...parts.models.values()].filter((m) => m.id === entry.id);
  if (entry.provider === undefined && sameId.length > 1)
    throw new ModelConfigError(
      `${source}: models.${index} (${entry.id}): several providers offer this id (${sameId
        .map((model) => model.provider)
        .join(', ')}); add "provider"`,
    );
  const base =
    entry.provider === undefined ? sameId[0] : parts.models.get(keyOf(entry.provider, entry.id));
  const { apiKey, ...fields } = entry;
  const merged = { ...base, ...stripUndefined(fields) } as Partial<ModelInfo>;
  // As pi: an override's thinking map adds to the built-in one.
  if (base?.thinkingLevelMap && fields.thinkingLevelMap)
    merged.thinkingLevelMap = { ...base.thinkingLevelMap, ...fields.thinkingLevelMap };
  // A built-in entry pointed at another endpoint must not carry the built-in key there.
  if (base && merged.baseUrl !== base.baseUrl && fields.apiKeyEnv === undefined) {
    delete merged.apiKeyEnv;
    parts.piKeys.delete(keyOf(base.provider, base.id));
  }
  const missing = (['provider', 'baseUrl', 'contextWindow', 'maxOutputTokens'] as const).filter(
    (key) => merged[key] === undefined,
  );
  if (missing.length > 0)
    throw new ModelConfigError(
      `${source}: models.${index} (${entry.id}): missing ${missing.join(', ')}`,
    );
  // At its own endpoint a built-in keeps pi's API for it; this form's other endpoints speak
  // Chat Completions, as they always did, with none of the built-in's API-specific settings.
  const home = base !== undefined && merged.baseUrl === base.baseUrl;
  const model: ModelInfo = {
    id: entry.id,
    name: merged.name ?? entry.id,
    provider: merged.provider!,
    ...(home && base.api ? { api: base.api } : {}),
    ...(home && base.headers ? { headers: base.headers } : {}),
    ...(home && base.compat ? { compat: base.compat } : {}),
    baseUrl: merged.baseUrl!,
    contextWindow: merged.contextWindow!,
    maxOutputTokens: merged.maxOutputTokens!,
    reasoning: merged.reasoning ?? false,
    ...(merged.thinkingLevelMap ? { thinkingLevelMap: merged.thinkingLevelMap } : {}),
    // As pi: a model of models.json reads text only unless it says otherwise.
    input: merged.input ?? ['text'],
    cost: merged.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...(merged.apiKeyEnv ? { apiKeyEnv: merged.apiKeyEnv } : {}),
    ...(merged.demo ? { demo: true } : {}),
  };
  const at = keyOf(model.provider, model.id);
  parts.models.set(at, model);
  // A provider's key from the environment goes to its own endpoints only.
  if (!home) parts.noEnvKey.add(at);
  if (apiKey) parts.keys.set(at, apiKey);
  parts.configured.push(at);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
