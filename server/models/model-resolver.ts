import { ThinkingLevelSchema, type ThinkingLevel } from '../../shared/session-entries.js';

/*
 * What a person types to name a model, read as pi 1.6 reads `pi --model` (pi-coding-agent's
 * core/model-resolver.ts, `resolveCliModel`): `provider/id` (the provider matched case-blind,
 * longest first, since a provider's id may hold a `/`), a bare id, a part of an id or name, and a
 * `:level` thinking suffix. The same id on several providers is decided by which of them has a
 * key; failing that it is ambiguous and the candidates are named. Checked against pi's own
 * function on the same catalogs (model-resolver.test.ts).
 *
 * Unlike pi, a name that matches no model is refused rather than tried as a new id of the named
 * provider (pi's "Using custom model id"): Arbor calls only models its catalog describes.
 */

/** What the resolver needs of a model. */
export interface ResolvableModel {
  provider: string;
  id: string;
  name?: string;
}

export type Resolution<M extends ResolvableModel> =
  | { status: 'resolved'; model: M; thinkingLevel?: ThinkingLevel }
  | { status: 'ambiguous'; candidates: M[]; usableCount: number }
  | { status: 'not-found' };

function thinkingLevelOf(text: string): ThinkingLevel | undefined {
  const parsed = ThinkingLevelSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

function splitThinkingSuffix(text: string): { base: string; level: ThinkingLevel } | undefined {
  const colon = text.lastIndexOf(':');
  if (colon === -1) return undefined;
  const level = thinkingLevelOf(text.slice(colon + 1));
  return level ? { base: text.slice(0, colon), level } : undefined;
}

/** `provider/rest` where provider is a known provider's id (case-blind, the longest that fits). */
function splitProviderPrefix<M extends ResolvableModel>(
  text: string,
  models: readonly M[],
): { provider: string; modelText: string } | undefined {
  const lower = text.toLowerCase();
  let best: { provider: string; modelText: string } | undefined;
  for (const { provider } of models) {
    const prefix = provider.trim().toLowerCase();
    if (!prefix || (best && best.provider.length >= provider.length)) continue;
    const slash = lower.indexOf('/', prefix.length);
    if (slash === -1 || lower.slice(0, slash).trim() !== prefix) continue;
    const modelText = text.slice(slash + 1).trim();
    if (modelText) best = { provider, modelText };
  }
  return best;
}

function fuzzyMatches<M extends ResolvableModel>(text: string, models: readonly M[]): M[] {
  const lower = text.toLowerCase();
  return models.filter(
    (model) => model.id.toLowerCase().includes(lower) || model.name?.toLowerCase().includes(lower),
  );
}

/** An alias (`claude-sonnet-4-5`) before a dated version (`…-20250929`), then the latest. */
function bestFuzzyMatch<M extends ResolvableModel>(matches: readonly M[]): M | undefined {
  const isAlias = (id: string) => id.endsWith('-latest') || !/-\d{8}$/.test(id);
  const aliases = matches.filter((model) => isAlias(model.id));
  return [...(aliases.length > 0 ? aliases : matches)].sort((a, b) => b.id.localeCompare(a.id))[0];
}

/**
 * `provider/rest` is a hint: the whole text may also be another provider's id (a gateway's
 * `zai/glm-5`). The named provider wins when it has a key; else a sole usable raw match.
 */
function selectReference<M extends ResolvableModel>(
  text: string,
  pool: readonly M[],
  usable: (provider: string) => boolean,
): Resolution<M> | undefined {
  const lower = text.toLowerCase();
  const raw = pool.filter((model) => model.id.toLowerCase() === lower);
  const split = splitProviderPrefix(text, pool);
  let named: M | undefined;
  if (split) {
    const own = pool.filter((model) => model.provider === split.provider);
    const lowerModel = split.modelText.toLowerCase();
    named =
      own.find((model) => model.id.toLowerCase() === lowerModel) ??
      raw.find((model) => model.provider === split.provider) ??
      bestFuzzyMatch(fuzzyMatches(split.modelText, own));
  }
  const others = raw.filter((model) => model !== named);
  const candidates = named ? [named, ...others] : others;
  if (candidates.length === 0) return undefined;
  if (new Set(candidates.map((model) => model.provider)).size === 1) {
    return { status: 'resolved', model: candidates[0]! };
  }
  if (named && usable(named.provider)) return { status: 'resolved', model: named };
  const usableOthers = others.filter((model) => usable(model.provider));
  if (usableOthers.length === 1) return { status: 'resolved', model: usableOthers[0]! };
  if (usableOthers.length === 0 && named) return { status: 'resolved', model: named };
  return { status: 'ambiguous', candidates, usableCount: usableOthers.length };
}

function selectFuzzy<M extends ResolvableModel>(
  matches: readonly M[],
  usable: (provider: string) => boolean,
): Resolution<M> | undefined {
  if (matches.length === 0) return undefined;
  const multipleProviders = new Set(matches.map((model) => model.provider)).size > 1;
  const usableMatches = multipleProviders ? matches.filter((model) => usable(model.provider)) : [];
  const pool = usableMatches.length > 0 ? usableMatches : matches;
  const best = bestFuzzyMatch(pool);
  if (!best) return undefined;
  // The same id on several providers would otherwise be decided by the catalog's order.
  const tied = pool.filter((model) => model.id === best.id);
  if (new Set(tied.map((model) => model.provider)).size === 1) {
    return { status: 'resolved', model: best };
  }
  return {
    status: 'ambiguous',
    candidates: tied,
    usableCount: usableMatches.length > 0 ? tied.length : 0,
  };
}

function resolveText<M extends ResolvableModel>(
  text: string,
  pool: readonly M[],
  usable: (provider: string) => boolean,
): Resolution<M> {
  const found =
    selectReference(text, pool, usable) ?? selectFuzzy(fuzzyMatches(text, pool), usable);
  if (found) return found;
  const thinking = splitThinkingSuffix(text);
  if (!thinking) return { status: 'not-found' };
  const inner = resolveText(thinking.base, pool, usable);
  return inner.status === 'resolved' ? { ...inner, thinkingLevel: thinking.level } : inner;
}

/**
 * The model `text` names among `models`, as `pi --model text` picks it; `usable(provider)` says
 * whether a provider has a key (it only breaks ties between providers).
 */
export function resolveModel<M extends ResolvableModel>(
  text: string,
  models: readonly M[],
  usable: (provider: string) => boolean,
): Resolution<M> {
  const trimmed = text.trim();
  if (!trimmed) return { status: 'not-found' };
  return resolveText(trimmed, models, usable);
}

/** The error `arbor run --model` prints for a name that is not one model, as pi words it. */
export function resolutionError<M extends ResolvableModel>(
  text: string,
  result: Exclude<Resolution<M>, { status: 'resolved' }>,
): string {
  if (result.status === 'not-found') {
    return `Model "${text}" not found. Give provider/id or an id of the catalog (arbor serve lists them on the page).`;
  }
  const matches = result.candidates
    .map((model) => `${model.provider}/${model.id}`)
    .sort((a, b) => a.localeCompare(b))
    .join(', ');
  const hint =
    result.usableCount === 0
      ? 'No matching provider has a key.'
      : 'More than one matching provider has a key.';
  return `Model "${text}" is ambiguous across providers: ${matches}. ${hint} Use provider/id.`;
}
