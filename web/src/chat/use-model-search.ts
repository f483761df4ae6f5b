import { useEffect, useState } from 'react';
import type { ModelSummary } from '../../../shared/protocol';
import { sameModel, type ModelRef } from '../../../shared/model-ref';
import { recentModels, searchModels } from '../api/rest';

/*
 * The model catalog as the page reaches it: the models a snapshot offers, and the rest of the
 * server's catalog (pi's ~1,300) searched as the user types, never loaded whole. A model found by a
 * search (or the session's model when no snapshot offered it) is remembered, so the toolbar knows
 * its window and thinking levels after it is picked.
 */

/** How many models one search shows. */
export const SEARCH_LIMIT = 50;
const SEARCH_DELAY_MS = 150;

export const refOf = (model: ModelSummary): ModelRef => ({
  provider: model.provider,
  modelId: model.id,
});

/** What the model field shows for a model: its name and provider (several may share a name). */
export const labelOf = (model: ModelSummary) => `${model.name} · ${model.provider}`;

/** Whether every word of `query` is in the model's provider/id or name (any case). */
export function matchesQuery(model: ModelSummary, query: string): boolean {
  const text = `${model.provider}/${model.id} ${model.name}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

/**
 * The models this user chose lately (kept on the server for them), asked again each time the
 * session's model changes, so the one just chosen comes first.
 */
export function useRecentModels(current: ModelRef | null): ModelSummary[] {
  const [recent, setRecent] = useState<ModelSummary[]>([]);
  const key = current ? `${current.provider}/${current.modelId}` : '';
  useEffect(() => {
    const abort = new AbortController();
    recentModels(abort.signal).then(
      (answer) => setRecent(answer.models),
      () => undefined, // Not known: the picker simply has no "Recent" group.
    );
    return () => abort.abort();
  }, [key]);
  return recent;
}

export interface ModelSearch {
  /**
   * The offered models matching what was typed, then the catalog's others; when nothing was typed
   * (or the field shows the session's model), the session's model and every offered one.
   */
  results: ModelSummary[];
  /** Of `results`, those the user chose lately, shown first in a group of their own. */
  recent: ModelSummary[];
  /** How many models of the catalog match in all, when a search answered; else undefined. */
  total: number | undefined;
  searching: boolean;
  /** Whether the session's model is being looked up (no snapshot offered it). */
  resolving: boolean;
  /** The summary of `ref`, from the offered models or one a search brought. */
  find(ref: ModelRef | null): ModelSummary | undefined;
}

export function useModelSearch(
  offered: ModelSummary[],
  typed: string,
  current: ModelRef | null,
  lately: readonly ModelSummary[] = [],
): ModelSearch {
  const [found, setFound] = useState<{ query: string; models: ModelSummary[]; total: number }>();
  const [known, setKnown] = useState<ModelSummary[]>([]);
  const [lookedUp, setLookedUp] = useState<string | null>(null);
  const find = (ref: ModelRef | null) =>
    ref
      ? (offered.find((m) => sameModel(refOf(m), ref)) ??
        known.find((m) => sameModel(refOf(m), ref)) ??
        lately.find((m) => sameModel(refOf(m), ref)))
      : undefined;
  const currentModel = find(current);
  // The field showing the session's model is not a query.
  const trimmed = currentModel && typed === labelOf(currentModel) ? '' : typed.trim();

  useEffect(() => {
    if (!trimmed) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      searchModels(trimmed, SEARCH_LIMIT, abort.signal).then(
        (answer) => {
          setFound({ query: trimmed, ...answer });
          setKnown((before) => remember(before, answer.models));
        },
        () => undefined, // An aborted or failed search leaves the offered models.
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [trimmed]);

  // The session's model, when no snapshot offers it (picked from a search, here or elsewhere).
  const missing = current !== null && !currentModel;
  const currentText = current ? `${current.provider}/${current.modelId}` : '';
  useEffect(() => {
    if (!missing) return;
    const abort = new AbortController();
    searchModels(currentText, SEARCH_LIMIT, abort.signal).then(
      (answer) => {
        setKnown((before) => remember(before, answer.models));
        setLookedUp(currentText);
      },
      () => setLookedUp(currentText),
    );
    return () => abort.abort();
  }, [missing, currentText]);

  const answered = found && found.query === trimmed ? found : undefined;
  const mine = trimmed
    ? offered.filter((m) => matchesQuery(m, trimmed))
    : currentModel && !offered.includes(currentModel)
      ? [currentModel, ...offered]
      : offered;
  const more = answered
    ? answered.models.filter((m) => !mine.some((o) => sameModel(refOf(o), refOf(m))))
    : [];
  // The user's recent models lead, when nothing is typed or they match what is.
  const recent = lately.filter((m) => !trimmed || matchesQuery(m, trimmed));
  const isRecent = (m: ModelSummary) => recent.some((r) => sameModel(refOf(r), refOf(m)));
  return {
    results: [...recent, ...[...mine, ...more].filter((m) => !isRecent(m))],
    recent,
    total: answered?.total,
    searching: trimmed !== '' && !answered,
    resolving: missing && lookedUp !== currentText,
    find,
  };
}

/** `before` with `models` added or refreshed, at most a few hundred kept. */
function remember(before: ModelSummary[], models: ModelSummary[]): ModelSummary[] {
  const rest = before.filter((m) => !models.some((n) => sameModel(refOf(m), refOf(n))));
  return [...models, ...rest].slice(0, 500);
}
