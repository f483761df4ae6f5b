import {
  clampThinkingLevel as piClampThinkingLevel,
  getSupportedThinkingLevels as piSupportedThinkingLevels,
  type Model,
} from '@mariozechner/pi-ai';
import { describe, expect, it } from 'vitest';
import {
  emptyUsage,
  type ImageContent,
  type ToolResultMessage,
  type UserMessage,
} from '../../shared/messages.js';
import type { ProviderMessage } from './model-stream.js';
import { ModelCatalog, type ModelInfo, type ThinkingLevelMap } from './model-catalog.js';
import { toOpenAIMessages } from './openai-stream.js';
import {
  THINKING_LEVELS,
  TOOL_IMAGE_OMITTED,
  USER_IMAGE_OMITTED,
  clampThinkingLevel,
  reasoningEffortFor,
  supportedThinkingLevels,
  withoutUnsupportedImages,
} from './request-capabilities.js';

function model(overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id: 'm',
    name: 'm',
    provider: 'test',
    baseUrl: 'http://127.0.0.1:1/v1',
    contextWindow: 1000,
    maxOutputTokens: 100,
    reasoning: true,
    input: ['text', 'image'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...overrides,
  };
}

/** The same capabilities as a pi-ai model, to ask pi's own functions. */
function asPiModel(info: ModelInfo): Model<'openai-completions'> {
  return {
    id: info.id,
    name: info.name,
    api: 'openai-completions',
    provider: info.provider,
    baseUrl: info.baseUrl,
    reasoning: info.reasoning,
    ...(info.thinkingLevelMap
      ? {
          thinkingLevelMap:
            info.thinkingLevelMap as Model<'openai-completions'>['thinkingLevelMap'],
        }
      : {}),
    input: info.input,
    cost: info.cost,
    contextWindow: info.contextWindow,
    maxTokens: info.maxOutputTokens,
  };
}

const MAPS: (ThinkingLevelMap | undefined)[] = [
  undefined,
  { off: null },
  { xhigh: 'xhigh' },
  { off: null, xhigh: 'xhigh' },
  { xhigh: 'max' },
  { minimal: null, low: null, medium: null, high: 'high', xhigh: 'max' },
  { off: null, minimal: null, low: 'LOW', medium: null, high: 'HIGH' },
  { minimal: 'medium', low: 'medium', medium: 'medium', high: 'high' },
];

describe('thinking levels per model', () => {
  it('a model that does not reason supports only off, and every level becomes off', () => {
    const plain = model({ reasoning: false });
    expect(supportedThinkingLevels(plain)).toEqual(['off']);
    for (const level of THINKING_LEVELS) expect(clampThinkingLevel(plain, level)).toBe('off');
    expect(reasoningEffortFor(plain, 'high')).toBeUndefined();
  });

  it('xhigh is offered only where the model names it; elsewhere it becomes high', () => {
    expect(clampThinkingLevel(model(), 'xhigh')).toBe('high');
    expect(clampThinkingLevel(model({ thinkingLevelMap: { xhigh: 'xhigh' } }), 'xhigh')).toBe(
      'xhigh',
    );
  });

  it("pi 1.6's max, as pi 1.6: offered only where named, else the nearest level below", () => {
    expect(supportedThinkingLevels(model())).not.toContain('max');
    expect(clampThinkingLevel(model(), 'max')).toBe('high');
    expect(clampThinkingLevel(model({ thinkingLevelMap: { xhigh: 'xhigh' } }), 'max')).toBe(
      'xhigh',
    );
    const withMax = model({ thinkingLevelMap: { max: 'max' } });
    expect(supportedThinkingLevels(withMax).at(-1)).toBe('max');
    expect(clampThinkingLevel(withMax, 'max')).toBe('max');
    expect(reasoningEffortFor(withMax, 'max')).toBe('max');
  });

  it('a model that always reasons turns off into its lowest level', () => {
    const gpt5 = model({ thinkingLevelMap: { off: null } });
    expect(clampThinkingLevel(gpt5, 'off')).toBe('minimal');
    expect(reasoningEffortFor(gpt5, 'off')).toBe('minimal');
  });

  it('an unknown level gives the lowest supported one', () => {
    expect(clampThinkingLevel(model(), 'extreme')).toBe('off');
    expect(clampThinkingLevel(model({ reasoning: false }), 'extreme')).toBe('off');
  });

  it.each(MAPS.map((map) => [JSON.stringify(map ?? null), map] as const))(
    'supports and clamps as pi does for the map %s',
    (_label, map) => {
      for (const reasoning of [true, false]) {
        const info = model({ reasoning, ...(map ? { thinkingLevelMap: map } : {}) });
        const pi = asPiModel(info);
        expect(supportedThinkingLevels(info)).toEqual(piSupportedThinkingLevels(pi));
        // pi 0.73 knows no "max" (pi 1.6's level above "xhigh"; none of these maps names it).
        for (const level of THINKING_LEVELS.filter((l) => l !== 'max'))
          expect(clampThinkingLevel(info, level)).toBe(piClampThinkingLevel(pi, level));
      }
    },
  );

  it('sends the clamped level through the model’s map, and off only when the map names it', () => {
    const mapped = model({
      thinkingLevelMap: { off: 'none', minimal: null, low: 'LOW', xhigh: 'max' },
    });
    expect(reasoningEffortFor(mapped, 'off')).toBe('none');
    expect(reasoningEffortFor(mapped, 'minimal')).toBe('LOW');
    expect(reasoningEffortFor(mapped, 'medium')).toBe('medium');
    expect(reasoningEffortFor(mapped, 'xhigh')).toBe('max');
    expect(reasoningEffortFor(model(), 'off')).toBeUndefined();
    expect(reasoningEffortFor(model(), 'xhigh')).toBe('high');
  });

  it('the built-in catalog follows pi: gpt-5 cannot turn thinking off, gpt-4o cannot think', () => {
    const catalog = ModelCatalog.load({ dataDir: '/nonexistent', config: { models: [] }, env: {} });
    expect(supportedThinkingLevels(catalog.lookup('gpt-5')!)).toEqual([
      'minimal',
      'low',
      'medium',
      'high',
    ]);
    expect(supportedThinkingLevels(catalog.lookup('o4-mini')!)).toEqual([
      'off',
      'minimal',
      'low',
      'medium',
      'high',
    ]);
    expect(supportedThinkingLevels(catalog.lookup('gpt-4o')!)).toEqual(['off']);
  });
});

const image = (data: string): ImageContent => ({ type: 'image', data, mimeType: 'image/png' });

function user(content: UserMessage['content']): UserMessage {
  return { role: 'user', content, timestamp: 1 };
}

function toolResult(content: ToolResultMessage['content']): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: 'call_1',
    toolName: 'read',
    content,
    isError: false,
    timestamp: 2,
  };
}

describe('images for a model that cannot see them', () => {
  const blind = model({ input: ['text'] });

  it('replaces each run of images with pi’s note, in user messages and tool results', () => {
    const messages: ProviderMessage[] = [
      user([image('a'), image('b'), { type: 'text', text: 'what is this?' }, image('c')]),
      toolResult([{ type: 'text', text: 'Read image file' }, image('d')]),
      user('plain text'),
    ];
    expect(withoutUnsupportedImages(blind, messages)).toEqual([
      user([
        { type: 'text', text: USER_IMAGE_OMITTED },
        { type: 'text', text: 'what is this?' },
        { type: 'text', text: USER_IMAGE_OMITTED },
      ]),
      toolResult([
        { type: 'text', text: 'Read image file' },
        { type: 'text', text: TOOL_IMAGE_OMITTED },
      ]),
      user('plain text'),
    ]);
    expect(USER_IMAGE_OMITTED).toBe('(image omitted: model does not support images)');
    expect(TOOL_IMAGE_OMITTED).toBe('(tool image omitted: model does not support images)');
  });

  it('leaves the messages it is given untouched', () => {
    const original = user([image('a'), { type: 'text', text: 'hi' }]);
    const copy = structuredClone(original);
    withoutUnsupportedImages(blind, [original]);
    expect(original).toEqual(copy);
  });

  it('sends no image_url part to a text-only model, and every image to one that sees them', () => {
    const messages: ProviderMessage[] = [
      user([{ type: 'text', text: 'look' }, image('a')]),
      {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'p.png' } }],
        api: 'openai-completions',
        provider: 'test',
        model: 'm',
        usage: emptyUsage(),
        stopReason: 'toolUse',
        timestamp: 2,
      },
      toolResult([image('b')]),
    ];
    const blindRequest = JSON.stringify(toOpenAIMessages(blind, 'system', messages));
    expect(blindRequest).not.toContain('image_url');
    expect(toOpenAIMessages(blind, 'system', messages)).toEqual([
      { role: 'system', content: 'system' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'text', text: USER_IMAGE_OMITTED },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'read', arguments: '{"path":"p.png"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: TOOL_IMAGE_OMITTED },
    ]);
    const seeing = JSON.stringify(toOpenAIMessages(model(), 'system', messages));
    expect(seeing.match(/"type":"image_url"/g)).toHaveLength(2);
  });
});
