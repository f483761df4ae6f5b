import { z } from 'zod';
import { describeIssues } from '../config/json-file.js';
import { ThinkingLevelSchema } from '../../shared/session-entries.js';
import type { ModelCost, ModelInfo, ThinkingLevelMap } from './model-info.js';
import { parsePiConfigValue, resolvePiConfigValue, type PiConfigValue } from './pi-config-value.js';

/*
 * pi's own models.json form, `{ "providers": { "<id>": { baseUrl, api, apiKey, models, ... } } }`
 * (pi 1.6's docs/models-configuration.md), read into what Arbor's catalog can use. Arbor calls
 * models through pi-ai, and offers a model when its api is one of those tested against a server
 * that speaks it (`OFFERED_APIS`, model-apis.test.ts); every other model is reported with the
 * reason, never silently dropped and never fatal. Request `headers` are sent, their values read as
 * pi reads them (`$NAME` from the environment; a `!command` is never run, and its model is
 * reported). `compat` goes to pi-ai as it is (the provider's under the model's, as pi-ai merges
 * them), so pi's request building is tuned as pi's; other fields that tune pi's requests
 * (inputLimits, promptCache, samplingParams, cost tiers) are not used yet. The merge with Arbor's
 * built-in models is the catalog's.
 */

/** A model (or a whole provider, without `modelId`) that Arbor read but cannot drive. */
export interface UnsupportedModel {
  provider: string;
  modelId?: string;
  reason: string;
}

/** pi's `headers` of a provider or model, each value read as pi reads an apiKey. */
type PiHeaders = Record<string, PiConfigValue>;

/** A model of a provider Arbor can drive, with pi's key for it (resolved per request). */
export interface PiModel {
  info: ModelInfo;
  key?: PiConfigValue;
}

/** What a provider entry changes in models Arbor has already (pi's built-in provider form). */
export interface PiProviderChange {
  provider: string;
  baseUrl?: string;
  key?: PiConfigValue;
  /** `modelOverrides`, by model id, as fields of Arbor's entries. */
  overrides: Map<string, Partial<ModelInfo>>;
  /** The provider's headers (resolved), under each of its models' own. */
  headers?: Record<string, string>;
}

export interface PiProviders {
  models: PiModel[];
  changes: PiProviderChange[];
  unsupported: UnsupportedModel[];
}

/** pi's default api for an OpenAI-compatible endpoint, and Arbor's for its own providers. */
export const SUPPORTED_API = 'openai-completions';
/** The pi-ai APIs Arbor offers models of: each is tested against a server speaking it. */
export const OFFERED_APIS: ReadonlySet<string> = new Set([
  SUPPORTED_API,
  'openai-responses',
  'anthropic-messages',
  'google-generative-ai',
  'mistral-conversations',
]);
/** A built-in provider's API and endpoint: what a model pi's file adds to it is called through. */
export interface BuiltInProvider {
  api: string;
  baseUrl: string;
}

const PI_DEFAULT_CONTEXT_WINDOW = 128_000;
const PI_DEFAULT_MAX_TOKENS = 16_384;

const CostSchema = z.looseObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
});

/** pi-ai's `compat` of a provider or model, handed on as it is. */
const CompatSchema = z.record(z.string(), z.unknown());

const modelFields = {
  name: z.string().min(1).optional(),
  reasoning: z.boolean().optional(),
  thinkingLevelMap: z.record(z.string(), z.string().nullable()).optional(),
  input: z.array(z.enum(['text', 'image'])).optional(),
  contextWindow: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  headers: z.record(z.string(), z.string()).optional(),
};

const PiModelSchema = z.looseObject({
  id: z.string().trim().min(1),
  compat: CompatSchema.optional(),
  api: z.string().min(1).optional(),
  baseUrl: z.string().min(1).optional(),
  cost: CostSchema.optional(),
  ...modelFields,
});

const PiOverrideSchema = z.looseObject({ cost: CostSchema.partial().optional(), ...modelFields });

const PiProviderSchema = z.looseObject({
  name: z.string().optional(),
  baseUrl: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  api: z.string().min(1).optional(),
  oauth: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  models: z.array(z.unknown()).optional(),
  modelOverrides: z.record(z.string(), z.unknown()).optional(),
  compat: CompatSchema.optional(),
});

export const PiProvidersSchema = z.record(z.string(), z.unknown());

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** pi's thinking map, keeping the levels Arbor knows (pi 1.6's, `max` included; others are not offered). */
export function thinkingMap(
  map: Record<string, string | null> | undefined,
): ThinkingLevelMap | undefined {
  if (!map) return undefined;
  const known = Object.entries(map).filter(
    ([level]) => ThinkingLevelSchema.safeParse(level).success,
  );
  return known.length > 0 ? (Object.fromEntries(known) as ThinkingLevelMap) : undefined;
}

/** Every model reads text (Arbor's rule); pi's default input is text only. */
export function withText(input: ('text' | 'image')[] | undefined): ('text' | 'image')[] {
  if (!input) return ['text'];
  return input.includes('text') ? input : ['text', ...input];
}

function apiReason(api: string | undefined): string | undefined {
  if (api !== undefined && OFFERED_APIS.has(api)) return undefined;
  if (api === undefined)
    return `names no "api" (pi would take the one of its built-in provider of that name, which Arbor does not know); give it one of ${[...OFFERED_APIS].map((a) => `"${a}"`).join(', ')} and a "baseUrl"`;
  return `uses the "${api}" API, which Arbor does not offer yet (it offers ${[...OFFERED_APIS].map((a) => `"${a}"`).join(', ')})`;
}

function keyReason(key: PiConfigValue | undefined): string | undefined {
  return key && 'command' in key
    ? 'takes its apiKey from a command ("!…"), which Arbor does not run; put the key in an environment variable and write "$NAME" instead'
    : undefined;
}

/** pi's headers parsed; a reason instead when one takes its value from a command. */
function headersOf(headers: Record<string, string> | undefined): PiHeaders | string | undefined {
  if (!headers) return undefined;
  const parsed: PiHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const read = parsePiConfigValue(value);
    if ('command' in read)
      return `takes the value of its "${name}" header from a command ("!…"), which Arbor does not run; put it in an environment variable and write "$NAME" instead`;
    parsed[name] = read;
  }
  return parsed;
}

/**
 * Headers with their variables filled in from `env`, as pi's `resolveHeaders`: a header whose
 * variable is unset is left out.
 */
function resolveHeaders(
  headers: PiHeaders | undefined,
  env: Record<string, string | undefined>,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = resolvePiConfigValue(value, env);
    if (text) resolved[name] = text;
  }
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}

function overrideOf(
  value: unknown,
  env: Record<string, string | undefined>,
): Partial<ModelInfo> | string {
  const parsed = PiOverrideSchema.safeParse(value);
  if (!parsed.success) return describeIssues(parsed.error);
  const o = parsed.data;
  const headers = headersOf(o.headers);
  if (typeof headers === 'string') return headers;
  const fields: Partial<ModelInfo> = {};
  const resolved = resolveHeaders(headers, env);
  if (resolved) fields.headers = resolved;
  if (o.name !== undefined) fields.name = o.name;
  if (o.reasoning !== undefined) fields.reasoning = o.reasoning;
  const map = thinkingMap(o.thinkingLevelMap);
  if (map) fields.thinkingLevelMap = map;
  if (o.input) fields.input = withText(o.input);
  if (o.contextWindow !== undefined) fields.contextWindow = o.contextWindow;
  if (o.maxTokens !== undefined) fields.maxOutputTokens = o.maxTokens;
  if (o.cost) fields.cost = o.cost as ModelCost; // merged field by field by the catalog
  return fields;
}

/**
 * Reads pi's `providers` object. Never throws: what cannot be used is in `unsupported`. Header
 * values are filled in from `env` now (keys are resolved per request, by the catalog).
 */
export function readPiProviders(
  providers: Record<string, unknown>,
  env: Record<string, string | undefined>,
  builtIn: ReadonlyMap<string, BuiltInProvider>,
): PiProviders {
  const result: PiProviders = { models: [], changes: [], unsupported: [] };
  for (const [provider, raw] of Object.entries(providers)) {
    const parsed = PiProviderSchema.safeParse(raw);
    if (!parsed.success) {
      result.unsupported.push({
        provider,
        reason: `could not be read (${describeIssues(parsed.error)})`,
      });
      continue;
    }
    const p = parsed.data;
    const own = builtIn.get(provider);
    const key = p.apiKey !== undefined ? parsePiConfigValue(p.apiKey) : undefined;
    const providerHeaders = headersOf(p.headers);
    const providerReason =
      p.oauth !== undefined
        ? 'signs in with OAuth ("oauth"), which Arbor does not do'
        : typeof providerHeaders === 'string'
          ? providerHeaders
          : p.baseUrl !== undefined && !isUrl(p.baseUrl)
            ? `has a baseUrl that is not an http(s) URL ("${p.baseUrl}")`
            : keyReason(key);
    const sharedHeaders =
      typeof providerHeaders === 'string' ? undefined : resolveHeaders(providerHeaders, env);

    if (own) {
      const change: PiProviderChange = { provider, overrides: new Map() };
      if (providerReason) {
        result.unsupported.push({
          provider,
          reason: `${providerReason}; the built-in ${provider} models stay as they were`,
        });
      } else {
        if (p.baseUrl !== undefined) change.baseUrl = p.baseUrl;
        if (key) change.key = key;
        if (sharedHeaders) change.headers = sharedHeaders;
      }
      for (const [id, value] of Object.entries(p.modelOverrides ?? {})) {
        const fields = overrideOf(value, env);
        if (typeof fields === 'string')
          result.unsupported.push({ provider, modelId: id, reason: fields });
        else change.overrides.set(id, fields);
      }
      result.changes.push(change);
    } else if (!p.models || p.models.length === 0) {
      result.unsupported.push({
        provider,
        reason:
          providerReason ??
          "declares no models of its own and is not a provider Arbor has built in (pi's built-in providers of other APIs are not offered yet)",
      });
      continue;
    }

    (p.models ?? []).forEach((rawModel, index) => {
      const m = PiModelSchema.safeParse(rawModel);
      if (!m.success) {
        const id = (rawModel as { id?: unknown } | null)?.id;
        result.unsupported.push({
          provider,
          ...(typeof id === 'string' ? { modelId: id } : {}),
          reason: `could not be read (models.${index}: ${describeIssues(m.error)})`,
        });
        return;
      }
      const model = m.data;
      const api = model.api ?? p.api ?? own?.api;
      const baseUrl = model.baseUrl ?? p.baseUrl ?? own?.baseUrl;
      const modelHeaders = headersOf(model.headers);
      const reason =
        providerReason ??
        apiReason(api) ??
        (typeof modelHeaders === 'string' ? modelHeaders : undefined) ??
        (baseUrl === undefined
          ? 'has no baseUrl'
          : !isUrl(baseUrl)
            ? `has a baseUrl that is not an http(s) URL ("${baseUrl}")`
            : undefined);
      if (reason) {
        result.unsupported.push({ provider, modelId: model.id, reason });
        return;
      }
      const map = thinkingMap(model.thinkingLevelMap);
      // As pi: the model's headers over its provider's.
      const headers = {
        ...sharedHeaders,
        ...resolveHeaders(modelHeaders as PiHeaders | undefined, env),
      };
      // pi-ai merges the provider's compat under the model's.
      const compat = p.compat || model.compat ? { ...p.compat, ...model.compat } : undefined;
      const info: ModelInfo = {
        id: model.id,
        name: model.name ?? model.id,
        provider,
        ...(api !== SUPPORTED_API ? { api } : {}),
        baseUrl: baseUrl!,
        contextWindow: model.contextWindow ?? PI_DEFAULT_CONTEXT_WINDOW,
        maxOutputTokens: model.maxTokens ?? PI_DEFAULT_MAX_TOKENS,
        reasoning: model.reasoning ?? false,
        ...(map ? { thinkingLevelMap: map } : {}),
        input: withText(model.input),
        cost: model.cost
          ? {
              input: model.cost.input,
              output: model.cost.output,
              cacheRead: model.cost.cacheRead,
              cacheWrite: model.cost.cacheWrite,
            }
          : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        ...(compat ? { compat } : {}),
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
      };
      result.models.push({ info, ...(key ? { key } : {}) });
    });
  }
  return result;
}
