import type { ThinkingLevel } from '../../shared/session-entries.js';

/* What the model layer knows of one model: read from the catalog and pi's providers alike. */

export interface ModelCost {
  /** USD per million tokens. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What a model can read: every model reads text; some also see images. */
export type ModelInput = 'text' | 'image';

/**
 * pi's per-model thinking map: a level mapped to null is not supported, a string is what is sent
 * as `reasoning_effort` for it; "xhigh" is supported only when named.
 */
export type ThinkingLevelMap = Partial<Record<ThinkingLevel, string | null>>;

export interface ModelInfo {
  id: string;
  name: string;
  provider: string;
  /** pi-ai's API the model is called through; `openai-completions` when absent. */
  api?: string;
  baseUrl: string;
  /** Headers sent with every request to the model (pi's `headers` of a provider or model). */
  headers?: Record<string, string>;
  apiKeyEnv?: string;
  contextWindow: number;
  maxOutputTokens: number;
  reasoning: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  /** Images are sent only to models whose input includes "image" (else a note stands in). */
  input: ModelInput[];
  demo?: boolean;
  cost: ModelCost;
  /**
   * pi-ai's `compat` for the model's API, as pi's models.json gives it: it tunes pi-ai's request
   * building (`supportsMidConvoSystemMessages`: later system messages of the session are sent
   * where they stand; off, pi-ai's default for OpenAI-compatible hosts, one leading prompt).
   */
  compat?: Record<string, unknown>;
  /**
   * Set on a session's recorded model that this server does not know (another provider, a model
   * removed from models.json): why it cannot be called. Such a model is kept, shown and refused.
   */
  unavailable?: string;
}
