import {
  clampThinkingLevel as piClampThinkingLevel,
  getSupportedThinkingLevels,
} from '@earendil-works/pi-ai';
import { ThinkingLevelSchema, type ThinkingLevel } from '../../shared/session-entries.js';
import type { ModelInfo } from './model-info.js';
import { piModelOf } from './pi-model.js';

/*
 * What a request may ask of a model, from its catalog entry, by pi-ai's own rules
 * (`getSupportedThinkingLevels`, `clampThinkingLevel`): a model that does not reason supports only
 * "off"; one that does supports every level its `thinkingLevelMap` does not map to null, and
 * "xhigh" and "max" only where the map names them; an unsupported level becomes the nearest one.
 * What is sent for a level, and how images reach a model that cannot see them, is pi-ai's
 * request building (pi-ai-stream.ts).
 */

export const THINKING_LEVELS: readonly ThinkingLevel[] = ThinkingLevelSchema.options;

/** The levels a model can be asked for, in order from "off" to "max". */
export function supportedThinkingLevels(model: ModelInfo): ThinkingLevel[] {
  return getSupportedThinkingLevels(piModelOf(model));
}

/**
 * The level a model actually gets for a requested one (pi-ai's clamp). A level that is not one of
 * pi's (from an old or hostile file) gives the lowest supported one.
 */
export function clampThinkingLevel(model: ModelInfo, level: string): ThinkingLevel {
  const parsed = ThinkingLevelSchema.safeParse(level);
  if (!parsed.success) return supportedThinkingLevels(model)[0] ?? 'off';
  return piClampThinkingLevel(piModelOf(model), parsed.data);
}

export function supportsImages(model: ModelInfo): boolean {
  return model.input.includes('image');
}
