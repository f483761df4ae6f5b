import type { ImageContent, TextContent } from '../../shared/messages.js';
import { ThinkingLevelSchema, type ThinkingLevel } from '../../shared/session-entries.js';
import type { ProviderMessage } from './model-stream.js';
import type { ModelInfo } from './model-catalog.js';

/*
 * What a request may ask of a model, from its catalog entry, with pi 0.73's rules
 * (pi-ai `getSupportedThinkingLevels`, `clampThinkingLevel`, and `transformMessages`' image
 * downgrade):
 *
 * - A model that does not reason supports only "off". One that does supports every level except
 *   those its `thinkingLevelMap` maps to null, and "xhigh" only when the map names it.
 * - An unsupported level becomes the nearest supported one, looking up first, then down.
 * - A model whose `input` lacks "image" is sent a short note in place of each run of images.
 */

export const THINKING_LEVELS: readonly ThinkingLevel[] = ThinkingLevelSchema.options;

/** The levels a model can be asked for, in order from "off" to "max" (pi 1.6's order). */
export function supportedThinkingLevels(model: ModelInfo): ThinkingLevel[] {
  if (!model.reasoning) return ['off'];
  return THINKING_LEVELS.filter((level) => {
    const mapped = model.thinkingLevelMap?.[level];
    if (mapped === null) return false;
    return level === 'xhigh' || level === 'max' ? mapped !== undefined : true;
  });
}

/**
 * The level a model actually gets for a requested one: the same when supported, else the nearest
 * supported level above it, else below it. An unknown level gives the lowest supported one.
 */
export function clampThinkingLevel(model: ModelInfo, level: string): ThinkingLevel {
  const supported = supportedThinkingLevels(model);
  const lowest = supported[0] ?? 'off';
  const requested = THINKING_LEVELS.indexOf(level as ThinkingLevel);
  if (requested === -1) return lowest;
  if (supported.includes(THINKING_LEVELS[requested]!)) return THINKING_LEVELS[requested]!;
  for (let i = requested + 1; i < THINKING_LEVELS.length; i++)
    if (supported.includes(THINKING_LEVELS[i]!)) return THINKING_LEVELS[i]!;
  for (let i = requested - 1; i >= 0; i--)
    if (supported.includes(THINKING_LEVELS[i]!)) return THINKING_LEVELS[i]!;
  return lowest;
}

/**
 * The `reasoning_effort` to send for a thinking level, or undefined to send none: nothing for a
 * model that does not reason; for "off", the map's value for "off" when it names one; otherwise
 * the clamped level, through the model's map.
 */
export function reasoningEffortFor(model: ModelInfo, level: string): string | undefined {
  if (!model.reasoning) return undefined;
  const clamped = clampThinkingLevel(model, level);
  const mapped = model.thinkingLevelMap?.[clamped];
  if (clamped === 'off') return typeof mapped === 'string' ? mapped : undefined;
  return mapped ?? clamped;
}

export function supportsImages(model: ModelInfo): boolean {
  return model.input.includes('image');
}

export const USER_IMAGE_OMITTED = '(image omitted: model does not support images)';
export const TOOL_IMAGE_OMITTED = '(tool image omitted: model does not support images)';

function replaceImages(
  content: (TextContent | ImageContent)[],
  note: string,
): (TextContent | ImageContent)[] {
  const out: (TextContent | ImageContent)[] = [];
  let afterNote = false;
  for (const block of content) {
    if (block.type === 'image') {
      // One note stands for a run of images.
      if (!afterNote) out.push({ type: 'text', text: note });
      afterNote = true;
      continue;
    }
    out.push(block);
    afterNote = block.text === note;
  }
  return out;
}

/**
 * The messages as a model that cannot see images may be sent them: every image block of a user
 * message or tool result replaced by a short note (one note per run of images). Returns new
 * message objects where something changed and never alters the ones it is given, so the session
 * keeps its images for models that can see them.
 */
export function withoutUnsupportedImages(
  model: ModelInfo,
  messages: ProviderMessage[],
): ProviderMessage[] {
  if (supportsImages(model)) return messages;
  return messages.map((message) => {
    if (message.role === 'user' && Array.isArray(message.content)) {
      if (!message.content.some((block) => block.type === 'image')) return message;
      return { ...message, content: replaceImages(message.content, USER_IMAGE_OMITTED) };
    }
    if (message.role === 'toolResult') {
      if (!message.content.some((block) => block.type === 'image')) return message;
      return { ...message, content: replaceImages(message.content, TOOL_IMAGE_OMITTED) };
    }
    return message;
  });
}
