/*
 * A model is named as pi names it: the pair of its provider and its id. Ids alone are not unique
 * (the same id is offered by several providers: a gateway, a cloud, the maker), so a session's
 * `model_change`, the protocol and the catalog all carry both. `provider/id` is only the text form
 * people type (`arbor run --model`); server/models/model-resolver.ts reads it as pi reads it.
 */

export interface ModelRef {
  provider: string;
  modelId: string;
}

/** The text form, `provider/id`. */
export function modelRefText(ref: ModelRef): string {
  return `${ref.provider}/${ref.modelId}`;
}

/** True when both name the same model. */
export function sameModel(a: ModelRef, b: ModelRef): boolean {
  return a.provider === b.provider && a.modelId === b.modelId;
}
