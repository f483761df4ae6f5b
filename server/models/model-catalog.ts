import path from 'node:path';
import { z } from 'zod';
import { describeIssues, JsonFileError, readJsonFile } from '../config/json-file.js';
import { AuthFile } from './auth-file.js';
import type { RequestAuth } from './model-stream.js';
import { OAuthSubscriptions } from './oauth-subscriptions.js';
import { DEFAULT_DEMO_CONTEXT_WINDOW, DEMO_MODEL_ID, DEMO_PROVIDER } from './demo-model-entry.js';
import type { Usage } from '../../shared/messages.js';
import type { KeySource } from '../../shared/rest-shapes.js';
import type { ModelInfo } from './model-info.js';
import { resolvePiConfigValue, type PiConfigValue } from './pi-config-value.js';
import { builtInModels, envKeyOf, keyVariablesOf } from './pi-catalog.js';
import { PiProvidersSchema, type UnsupportedModel } from './pi-providers.js';
import {
  keyOf,
  LEGACY_PROVIDER,
  mergeArborEntry,
  mergePiProviders,
  ModelConfigError,
  ModelEntrySchema,
} from './catalog-merge.js';
import {
  readPiSettings,
  scopedModels,
  startupThinkingLevel,
  type PiSettings,
} from './pi-settings.js';
import type { ThinkingLevel } from '../../shared/session-entries.js';

/*
 * The models a session can use: the demo model and pi's built-in catalog, merged with the
 * user's `<dataDir>/models.json` in Arbor's form (`models`), pi's form (`providers`, so that
 * `--data ~/.pi/agent` reads pi's own file; see pi-providers.ts), or both (catalog-merge.ts). API keys are resolved
 * here and stay here: `ModelInfo` and `publicInfo()` never carry one, only `apiKeyFor()` does, for
 * the stream function.
 */

export type { ModelInfo } from './model-info.js';

/** What a browser may see about a model. */
export interface PublicModelInfo extends Omit<ModelInfo, 'apiKeyEnv' | 'headers'> {
  hasApiKey: boolean;
}

export const ModelsConfigSchema = z.strictObject({
  /** pi's editor hint (`https://pi.dev/schemas/models.schema.json`); not used. */
  $schema: z.string().optional(),
  /** Id of the model new sessions use. */
  defaultModel: z.string().min(1).optional(),
  models: z.array(ModelEntrySchema).default([]),
  /** pi's form: provider id → provider (pi's docs/models-configuration.md). */
  providers: PiProvidersSchema.optional(),
});
export type ModelsConfig = z.input<typeof ModelsConfigSchema>;

export { ModelConfigError };

export { DEMO_PROVIDER };

/** pi's file of saved credentials, in the data folder (pi's agent folder). */
export const AUTH_FILE = 'auth.json';

/**
 * Models offered before any key is set, so that a first run shows what a key would bring (and
 * says which is missing): OpenAI's models Arbor offered before it had pi's catalog.
 */
const FEATURED = new Set(
  ['gpt-5', 'gpt-5-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o4-mini'].map((id) =>
    keyOf(LEGACY_PROVIDER, id),
  ),
);

export interface ModelCatalogOptions {
  dataDir: string;
  /** Where the demo model answers (e.g. `http://127.0.0.1:7478/demo/v1`). */
  demoBaseUrl?: string;
  demoContextWindow?: number;
  /**
   * The key sent to the demo model; a server sets a random one so that in team mode only it (and
   * signed-in users) may call its own demo model. Default `arbor-demo`.
   */
  demoApiKey?: string;
  /** Used instead of `<dataDir>/models.json` when given; auth.json is then not read either. */
  config?: ModelsConfig;
  /** pi's auth.json as the server reads it (one reader for all); else `<dataDir>/auth.json`. */
  auth?: AuthFile;
  /** Environment to read keys from; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
}

function readConfigFile(file: string): ModelsConfig {
  try {
    return (readJsonFile(file) ?? { models: [] }) as ModelsConfig;
  } catch (error) {
    if (error instanceof JsonFileError) throw new ModelConfigError(error.message);
    throw error;
  }
}

/** What names a model in the catalog: a `ModelInfo`, or any object with its provider and id. */
export interface ModelKey {
  provider: string;
  id: string;
}

export class ModelCatalog {
  private subscriptions: OAuthSubscriptions | undefined;

  private constructor(
    private readonly models: Map<string, ModelInfo>,
    private readonly keys: Map<string, string>,
    private readonly piKeys: Map<string, PiConfigValue>,
    private readonly unsupportedModels: UnsupportedModel[],
    private readonly defaultKey: string,
    private readonly env: Record<string, string | undefined>,
    private readonly demoKey: string,
    private readonly auth: AuthFile | undefined,
    private readonly settings: PiSettings = {},
    /** The models pi's `enabledModels` names, by key; undefined when it names none (all are). */
    private readonly enabledKeys?: ReadonlySet<string>,
    private readonly configuredKeys: ReadonlySet<string> = new Set(),
    private readonly noEnvKey: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * Built-in entries merged with `<dataDir>/models.json` (or `opts.config`). An entry whose id is
   * built in overrides only the fields it names; a new id needs provider, baseUrl, contextWindow
   * and maxOutputTokens. Throws `ModelConfigError` naming the file and field on bad input.
   */
  static load(opts: ModelCatalogOptions): ModelCatalog {
    const file = path.join(opts.dataDir, 'models.json');
    const source = opts.config ? 'models config' : file;
    const parsed = ModelsConfigSchema.safeParse(opts.config ?? readConfigFile(file));
    if (!parsed.success) throw new ModelConfigError(`${source}: ${describeIssues(parsed.error)}`);
    const config = parsed.data;
    const env = opts.env ?? process.env;
    const models = new Map<string, ModelInfo>();
    for (const model of builtInModels(
      opts.demoBaseUrl ?? '',
      opts.demoContextWindow ?? DEFAULT_DEMO_CONTEXT_WINDOW,
    ))
      models.set(keyOf(model.provider, model.id), model);
    const keys = new Map<string, string>();
    const piKeys = new Map<string, PiConfigValue>();
    const unsupported: UnsupportedModel[] = [];
    const configured: string[] = [];
    const noEnvKey = new Set<string>();
    // pi's form first, so that an entry of Arbor's form can refine one of pi's models.
    if (config.providers)
      mergePiProviders(
        { models, keys, piKeys, unsupported, configured, noEnvKey },
        config.providers,
        env,
      );
    config.models.forEach((entry, index) =>
      mergeArborEntry(
        { models, keys, piKeys, unsupported, configured, noEnvKey },
        entry,
        index,
        source,
      ),
    );
    const demoKey = opts.demoApiKey ?? 'arbor-demo';
    const auth = opts.config
      ? undefined
      : (opts.auth ?? new AuthFile(path.join(opts.dataDir, AUTH_FILE)));
    const demo = keyOf(DEMO_PROVIDER, DEMO_MODEL_ID);
    let settings: PiSettings = {};
    if (!opts.config) {
      try {
        settings = readPiSettings(opts.dataDir);
      } catch (error) {
        throw new ModelConfigError((error as Error).message);
      }
    }
    const enabledKeys = settings.enabledModels
      ? new Set(
          [...scopedModels(settings.enabledModels, [...models.values()])].map((model) =>
            keyOf(model.provider, model.id),
          ),
        )
      : undefined;
    const catalog = new ModelCatalog(models, keys, piKeys, unsupported, demo, env, demoKey, auth);
    const settingsDefault = settings.defaultModel
      ? settings.defaultProvider
        ? catalog.get(settings.defaultProvider, settings.defaultModel)
        : catalog.lookup(settings.defaultModel)
      : undefined;
    let defaultKey: string;
    if (config.defaultModel) {
      const chosen =
        catalog.get(LEGACY_PROVIDER, config.defaultModel) ?? catalog.lookup(config.defaultModel);
      if (!chosen)
        throw new ModelConfigError(
          `${source}: defaultModel "${config.defaultModel}" is not a known model (or its id belongs to several providers: write provider/id)`,
        );
      defaultKey = keyOf(chosen.provider, chosen.id);
    } else if (settingsDefault) {
      // pi's settings.json, where Arbor's models.json names no default.
      defaultKey = keyOf(settingsDefault.provider, settingsDefault.id);
    } else {
      // Among the enabled models when pi's enabledModels names some, as pi starts on the first.
      const candidates = enabledKeys ? [...enabledKeys] : configured;
      defaultKey =
        candidates.find((at) => catalog.hasKey(models.get(at)!)) ??
        (enabledKeys ? candidates[0] : undefined) ??
        demo;
    }
    return new ModelCatalog(
      models,
      keys,
      piKeys,
      unsupported,
      defaultKey,
      env,
      demoKey,
      auth,
      settings,
      enabledKeys,
      new Set(configured),
      noEnvKey,
    );
  }

  /**
   * The models and providers of models.json that Arbor read but cannot drive, each with the
   * reason (another API than Chat Completions, a key from a command, OAuth, custom headers).
   */
  unsupported(): UnsupportedModel[] {
    return this.unsupportedModels.map((entry) => ({ ...entry }));
  }

  list(): ModelInfo[] {
    return [...this.models.values()];
  }

  /**
   * Whether `model` is in use on this server: every model, unless pi's `enabledModels`
   * (settings.json) names some, then those. The page offers only these, and a session is moved
   * only to one of them.
   */
  enabled(model: ModelKey): boolean {
    return !this.enabledKeys || this.enabledKeys.has(keyOf(model.provider, model.id));
  }

  /**
   * The models offered in every session's snapshot, as pi's `/model` offers the models it can
   * call: of those in use, the demo model, the ones models.json names, the ones whose provider has
   * a key, and (so that a first run shows what a key brings) OpenAI's best known. When pi's
   * `enabledModels` names models, it is those. The whole catalog is searched through the
   * models listing (`search`), never sent whole.
   */
  offered(): ModelInfo[] {
    if (this.enabledKeys) return [...this.enabledKeys].map((at) => this.models.get(at)!);
    const keyed = new Map<string, boolean>();
    const hasKey = (model: ModelInfo) => {
      // Per provider, but a model's own key (models.json) counts for it alone.
      if (
        this.keys.has(keyOf(model.provider, model.id)) ||
        this.piKeys.has(keyOf(model.provider, model.id))
      )
        return this.hasKey(model);
      let known = keyed.get(model.provider);
      if (known === undefined) keyed.set(model.provider, (known = this.hasKey(model)));
      return known;
    };
    return this.list().filter((model) => {
      const at = keyOf(model.provider, model.id);
      return model.demo || this.configuredKeys.has(at) || FEATURED.has(at) || hasKey(model);
    });
  }

  /**
   * Up to `limit` models in use whose provider, id or name holds every word of `query` (any
   * case), in catalog order, and how many match in all: the whole catalog, for a picker that
   * takes typing.
   */
  search(query: string, limit: number): { models: ModelInfo[]; total: number } {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const models: ModelInfo[] = [];
    let total = 0;
    for (const model of this.models.values()) {
      if (!this.enabled(model)) continue;
      const text = `${model.provider}/${model.id} ${model.name}`.toLowerCase();
      if (!words.every((word) => text.includes(word))) continue;
      total++;
      if (models.length < limit) models.push(model);
    }
    return { models, total };
  }

  /** pi's `enabledModels` patterns this catalog was loaded with; null when every model is in use. */
  enabledPatterns(): string[] | null {
    return this.settings.enabledModels ? [...this.settings.enabledModels] : null;
  }

  /** Changes whenever which models have a key may have changed (auth.json was written). */
  keysVersion(): string {
    return this.auth?.version() ?? '';
  }

  /** The thinking level a new session on `model` starts at (pi's settings.json), if one is set. */
  startupThinkingLevel(model: ModelKey): ThinkingLevel | undefined {
    return startupThinkingLevel(this.settings, model);
  }

  /** The model `id` of `provider`, as a session's model_change entry records it. */
  get(provider: string, id: string): ModelInfo | undefined {
    return this.models.get(keyOf(provider, id));
  }

  /**
   * The model named by `text` exactly: `provider/id`, or an id only one provider offers (a
   * provider's own id may hold a `/`, as OpenRouter's `anthropic/claude-sonnet-4`). For
   * configuration and tests; what people type goes through model-resolver.ts, as pi reads it.
   */
  lookup(text: string): ModelInfo | undefined {
    const slash = text.indexOf('/');
    if (slash > 0) {
      const named = this.get(text.slice(0, slash), text.slice(slash + 1));
      if (named) return named;
    }
    const sameId = this.list().filter((model) => model.id === text);
    return sameId.length === 1 ? sameId[0] : undefined;
  }

  /**
   * The model a session recorded, as this server knows it, or a stand-in that keeps its provider
   * and id and says why it cannot be called: a session never moves to another model on its own.
   */
  recorded(provider: string, id: string): ModelInfo {
    const known = this.get(provider, id);
    if (known && !this.enabled(known))
      return {
        ...known,
        unavailable: `This session's model ${provider}/${id} is not among the models in use on this server (enabledModels in settings.json): choose another model.`,
      };
    if (known) return known;
    return {
      id,
      name: id,
      provider,
      baseUrl: '',
      // Unknown; the usual window of today's models, for the meter only.
      contextWindow: DEFAULT_DEMO_CONTEXT_WINDOW,
      maxOutputTokens: 0,
      reasoning: false,
      input: ['text'],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      unavailable: `This session's model ${provider}/${id} is not configured on this server: add its provider to models.json, or choose another model.`,
    };
  }

  /** Why `model` cannot be called now (not configured here, or no key), if so. */
  problemOf(model: ModelInfo): string | undefined {
    return model.unavailable ?? this.missingKeyReason(model);
  }

  defaultModel(): ModelInfo {
    return this.models.get(this.defaultKey)!;
  }

  /**
   * The key to send to a model's endpoint: its provider's key in auth.json, then the config file's (Arbor's `apiKey`, else pi's
   * `apiKey` with its `$NAME`s filled in from the environment now), else the entry's `apiKeyEnv`,
   * else `OPENAI_API_KEY` for the openai provider. The demo model gets the catalog's demo key.
   */
  apiKeyFor(named: ModelKey): string | undefined {
    const at = keyOf(named.provider, named.id);
    const model = this.models.get(at);
    if (!model) return undefined;
    if (model.demo) return this.demoKey;
    // As pi: a key saved in auth.json comes before models.json's and the environment's.
    const stored = this.auth?.keyFor(model.provider, this.env);
    if (stored && 'key' in stored) return stored.key;
    const fromFile = this.keys.get(at);
    if (fromFile) return fromFile;
    const piKey = this.piKeys.get(at);
    if (piKey) {
      const resolved = resolvePiConfigValue(piKey, this.env);
      if (resolved) return resolved;
    }
    if (model.apiKeyEnv) return this.env[model.apiKeyEnv] || undefined;
    // As pi: a provider reads its own variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, …), as pi-ai
    // names them, for its own endpoints.
    return this.noEnvKey.has(at) ? undefined : envKeyOf(model.provider, this.env);
  }

  /**
   * Whether requests to `named` have something to authorise them: a key, or a subscription pi
   * signed in to (whose token may still need renewing: `requestAuth` says).
   */
  hasKey(named: ModelKey): boolean {
    return this.apiKeyFor(named) !== undefined || this.subscribed(named);
  }

  /**
   * How to authorise a request to `named` now. As pi, a subscription saved in auth.json owns its
   * provider: its token is sent (renewed first when about to expire); otherwise `apiKeyFor`.
   */
  async requestAuth(named: ModelKey, signal?: AbortSignal): Promise<RequestAuth> {
    // Asked again at every request of a run, so a model taken out of use meanwhile stops there.
    const known = this.get(named.provider, named.id);
    if (known && !this.enabled(known))
      return { problem: this.recorded(named.provider, named.id).unavailable };
    if (this.subscribed(named))
      return this.oauthSubscriptions()!.requestAuth(named.provider, signal);
    const apiKey = this.apiKeyFor(named);
    return apiKey !== undefined ? { apiKey } : {};
  }

  private subscribed(named: ModelKey): boolean {
    const model = this.models.get(keyOf(named.provider, named.id));
    return !!model && !model.demo && !!this.oauthSubscriptions()?.has(model.provider);
  }

  private oauthSubscriptions(): OAuthSubscriptions | undefined {
    if (this.auth) this.subscriptions ??= new OAuthSubscriptions(this.auth);
    return this.subscriptions;
  }

  /**
   * Why a model has no key to send, in words a person acts on, or undefined when it has one.
   * Names the environment variable to set (never a key), as the error of a send without one does.
   */
  missingKeyReason(named: ModelKey): string | undefined {
    if (this.hasKey(named)) return undefined;
    const model = this.get(named.provider, named.id);
    if (!model) return undefined;
    const stored = this.auth?.keyFor(model.provider, this.env);
    if (stored && 'reason' in stored) return stored.reason;
    if (this.piKeys.has(keyOf(model.provider, model.id)))
      return 'No API key: the key in models.json names an environment variable that is not set';
    if (model.apiKeyEnv) return `No API key: set ${model.apiKeyEnv} or add "apiKey" to models.json`;
    const variables = this.noEnvKey.has(keyOf(model.provider, model.id))
      ? []
      : keyVariablesOf(model.provider);
    return variables.length > 0
      ? `No API key: set ${variables.join(' or ')}, or save a key for ${model.provider}`
      : 'No API key: add "apiKey" or "apiKeyEnv" to its entry in models.json';
  }

  /**
   * Every provider of the catalog (the demo model's aside), how many models it has, and where its
   * key comes from, in pi's order of precedence: a key saved in auth.json, a subscription pi signed
   * in to, models.json, the environment; never the key itself.
   */
  providerKeys(): { provider: string; models: number; key: KeySource | null }[] {
    const providers = new Map<
      string,
      { provider: string; models: number; key: KeySource | null }
    >();
    for (const model of this.models.values()) {
      if (model.demo) continue;
      let row = providers.get(model.provider);
      if (!row) {
        row = { provider: model.provider, models: 0, key: this.keySourceOf(model) };
        providers.set(model.provider, row);
      } else if (row.key === null) {
        // A model's own key (models.json) counts for its provider.
        row.key = this.keySourceOf(model);
      }
      row.models++;
    }
    return [...providers.values()];
  }

  private keySourceOf(model: ModelInfo): KeySource | null {
    const stored = this.auth?.keyFor(model.provider, this.env);
    if (stored && 'key' in stored) return 'saved';
    if (this.subscribed(model)) return 'subscription';
    const at = keyOf(model.provider, model.id);
    if (this.keys.has(at) || (this.piKeys.has(at) && this.apiKeyFor(model) !== undefined))
      return 'models.json';
    return this.apiKeyFor(model) !== undefined ? 'environment' : null;
  }

  /** The catalog as a browser may see it: no keys, no key variable names. */
  publicInfo(): PublicModelInfo[] {
    return this.list().map(({ apiKeyEnv: _env, headers: _headers, ...model }) => ({
      ...model,
      hasApiKey: this.hasKey(model),
    }));
  }
}

/** USD cost of a call, from the catalog's per-million prices. */
export function costOf(
  model: ModelInfo,
  usage: Pick<Usage, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>,
) {
  const input = (model.cost.input * usage.input) / 1_000_000;
  const output = (model.cost.output * usage.output) / 1_000_000;
  const cacheRead = (model.cost.cacheRead * usage.cacheRead) / 1_000_000;
  const cacheWrite = (model.cost.cacheWrite * usage.cacheWrite) / 1_000_000;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
