import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelCatalog, ModelConfigError } from './model-catalog.js';
import { scopedModels } from './pi-settings.js';
import { resolveModelWithPi16 } from '../store/test-support/pi16-oracle.js';

/*
 * pi's settings.json in the data folder: the startup model and thinking level, and the models in
 * use (`enabledModels`), scoped as pi 1.6 scopes them.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function catalogWith(settings: unknown, models?: unknown): ModelCatalog {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-settings-'));
  dirs.push(dataDir);
  fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
  if (models) fs.writeFileSync(path.join(dataDir, 'models.json'), JSON.stringify(models));
  return ModelCatalog.load({ dataDir, demoBaseUrl: 'http://127.0.0.1:1/demo/v1', env: {} });
}

const SCOPES = [
  ['anthropic/*'],
  ['*sonnet*'],
  ['gpt-4o'],
  ['claude-opus-4-5', 'openai/gpt-5*:high'],
  ['google/gemini-2.5-*', 'no-such-model-anywhere'],
  ['OPENAI/GPT-4O-MINI'],
];

describe("pi's settings.json", () => {
  it('scopes enabledModels patterns to the models pi 1.6 scopes them to, over its catalog', async () => {
    const pi = await resolveModelWithPi16([], [], SCOPES);
    SCOPES.forEach((patterns, index) => {
      const ours = [...scopedModels(patterns, pi.models)].map((m) => `${m.provider}/${m.id}`);
      expect(ours.sort(), patterns.join(' ')).toEqual([...pi.scoped[index]!].sort());
    });
    // The scopes are not empty: the test compares real selections.
    expect(pi.scoped.filter((list) => list.length > 1).length).toBeGreaterThan(2);
  });

  it('starts new sessions on its default model and thinking level, where models.json names none', () => {
    const catalog = catalogWith({
      defaultProvider: 'openai',
      defaultModel: 'gpt-4.1',
      defaultThinkingLevel: 'high',
      modelThinkingLevels: { 'openai/gpt-5': 'low' },
    });
    expect(catalog.defaultModel()).toMatchObject({ provider: 'openai', id: 'gpt-4.1' });
    expect(catalog.startupThinkingLevel({ provider: 'openai', id: 'gpt-4.1' })).toBe('high');
    expect(catalog.startupThinkingLevel({ provider: 'openai', id: 'gpt-5' })).toBe('low');
    // Arbor's models.json wins where it names the same setting.
    const ours = catalogWith({ defaultModel: 'gpt-4.1' }, { defaultModel: 'gpt-4o' });
    expect(ours.defaultModel().id).toBe('gpt-4o');
  });

  it('offers only the enabled models, and keeps a session on another one with the reason', () => {
    const catalog = catalogWith({ enabledModels: ['openai/gpt-4o*'] });
    const enabled = catalog.list().filter((model) => catalog.enabled(model));
    expect(enabled.map((model) => model.id)).toEqual(
      expect.arrayContaining(['gpt-4o', 'gpt-4o-mini']),
    );
    // As pi scopes it: OpenRouter's `openai/gpt-4o` matches the pattern too.
    for (const model of enabled)
      expect(`${model.provider}/${model.id}`).toMatch(/(^|\/)openai\/gpt-4o/);
    // Only those are offered, with or without a key.
    expect(catalog.offered()).toEqual(enabled);
    expect(catalog.defaultModel().id).toMatch(/^gpt-4o/);
    const elsewhere = catalog.recorded('openai', 'gpt-5');
    expect(elsewhere.unavailable).toContain('enabledModels');
    expect(catalog.recorded('openai', 'gpt-4o').unavailable).toBeUndefined();
  });

  it('refuses a settings.json it cannot read, naming the file and the field', () => {
    expect(() => catalogWith({ defaultThinkingLevel: 'extreme' })).toThrow(ModelConfigError);
    expect(() => catalogWith({ defaultThinkingLevel: 'extreme' })).toThrow(
      /settings\.json.*defaultThinkingLevel/,
    );
  });
});
