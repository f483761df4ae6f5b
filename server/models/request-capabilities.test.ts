import { describe, expect, it } from 'vitest';
import { ModelCatalog, type ModelInfo } from './model-catalog.js';
import {
  THINKING_LEVELS,
  clampThinkingLevel,
  supportedThinkingLevels,
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

describe('thinking levels per model', () => {
  it('a model that does not reason supports only off, and every level becomes off', () => {
    const plain = model({ reasoning: false });
    expect(supportedThinkingLevels(plain)).toEqual(['off']);
    for (const level of THINKING_LEVELS) expect(clampThinkingLevel(plain, level)).toBe('off');
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
  });

  it('a model that always reasons turns off into its lowest level', () => {
    const gpt5 = model({ thinkingLevelMap: { off: null } });
    expect(clampThinkingLevel(gpt5, 'off')).toBe('minimal');
  });

  it('an unknown level gives the lowest supported one', () => {
    expect(clampThinkingLevel(model(), 'extreme')).toBe('off');
    expect(clampThinkingLevel(model({ reasoning: false }), 'extreme')).toBe('off');
  });

  it('the built-in catalog follows pi: gpt-5 cannot turn thinking off, gpt-4o cannot think', () => {
    const catalog = ModelCatalog.load({ dataDir: '/nonexistent', config: { models: [] }, env: {} });
    expect(supportedThinkingLevels(catalog.lookup('openai/gpt-5')!)).toEqual([
      'minimal',
      'low',
      'medium',
      'high',
    ]);
    // pi's catalog: o4-mini always reasons, from "low" up.
    expect(supportedThinkingLevels(catalog.lookup('openai/o4-mini')!)).toEqual([
      'low',
      'medium',
      'high',
    ]);
    expect(supportedThinkingLevels(catalog.lookup('openai/gpt-4o')!)).toEqual(['off']);
  });
});
