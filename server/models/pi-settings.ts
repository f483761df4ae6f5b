import path from 'node:path';
import { z } from 'zod';
import { describeIssues, JsonFileError, readJsonFile } from '../config/json-file.js';
import { ThinkingLevelSchema, type ThinkingLevel } from '../../shared/session-entries.js';
import { compileGlob } from '../runtime/linear-glob.js';
import { resolveModel, type ResolvableModel } from './model-resolver.js';
import { changeUnderPiLock } from './pi-locked-file.js';

/*
 * What Arbor reads of pi's `settings.json` in the data folder (pi's agent folder; pi 1.6's
 * docs/settings.md): the startup model (`defaultProvider` + `defaultModel`), the startup thinking
 * level (`defaultThinkingLevel`, `modelThinkingLevels` by `provider/id`), and which models are in
 * use (`enabledModels`, pi's `--models` patterns). Every other setting is pi's alone and left as it
 * is. Where Arbor's own files name the same thing (`defaultModel` in models.json), they win.
 */

export const SETTINGS_FILE = 'settings.json';

const PiSettingsSchema = z.looseObject({
  defaultProvider: z.string().min(1).optional(),
  defaultModel: z.string().min(1).optional(),
  defaultThinkingLevel: ThinkingLevelSchema.optional(),
  modelThinkingLevels: z.record(z.string(), ThinkingLevelSchema).optional(),
  enabledModels: z.array(z.string().min(1)).optional(),
});

export type PiSettings = z.infer<typeof PiSettingsSchema>;

/** The file's settings (none when it is absent); an error naming the file and field when it is unreadable. */
export function readPiSettings(dataDir: string): PiSettings {
  const file = path.join(dataDir, SETTINGS_FILE);
  let raw: unknown;
  try {
    raw = readJsonFile(file) ?? {};
  } catch (error) {
    if (error instanceof JsonFileError) throw new Error(error.message, { cause: error });
    throw error;
  }
  const parsed = PiSettingsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

function splitThinkingSuffix(pattern: string): string {
  const colon = pattern.lastIndexOf(':');
  if (colon === -1) return pattern;
  return ThinkingLevelSchema.safeParse(pattern.slice(colon + 1)).success
    ? pattern.slice(0, colon)
    : pattern;
}

/**
 * The models `patterns` name, as pi scopes `enabledModels`: a pattern with `*`, `?` or `[` is a
 * glob over `provider/id` or the id alone (case-blind), unless it is an exact model name; any
 * other pattern is a model name read as `--model` reads it, every candidate of an ambiguous one
 * included. A pattern that names nothing names nothing (pi warns).
 */
export function scopedModels<M extends ResolvableModel>(
  patterns: readonly string[],
  models: readonly M[],
): Set<M> {
  const scoped = new Set<M>();
  const always = () => true;
  for (const pattern of patterns) {
    const base = splitThinkingSuffix(pattern.trim());
    if (/[*?[]/.test(base)) {
      const exact = models.filter(
        (model) =>
          `${model.provider}/${model.id}`.toLowerCase() === base.toLowerCase() ||
          model.id.toLowerCase() === base.toLowerCase(),
      );
      if (exact.length > 0) {
        for (const model of exact) scoped.add(model);
        continue;
      }
      let glob;
      try {
        glob = compileGlob(base.toLowerCase());
      } catch {
        continue;
      }
      for (const model of models) {
        if (
          glob.matches(`${model.provider}/${model.id}`.toLowerCase()) ||
          glob.matches(model.id.toLowerCase())
        )
          scoped.add(model);
      }
      continue;
    }
    const named = resolveModel(base, models, always);
    if (named.status === 'resolved') scoped.add(named.model);
    else if (named.status === 'ambiguous') for (const model of named.candidates) scoped.add(model);
  }
  return scoped;
}

/** The thinking level a new session on `model` starts at, as pi's settings give it. */
export function startupThinkingLevel(
  settings: PiSettings,
  model: { provider: string; id: string },
): ThinkingLevel | undefined {
  return (
    settings.modelThinkingLevels?.[`${model.provider}/${model.id}`] ?? settings.defaultThinkingLevel
  );
}

/**
 * Sets pi's `enabledModels` in the folder's settings.json (or removes it, for every model), as
 * pi's `/scoped-models` saves it: under pi's lock, every other setting kept as it is.
 */
export async function writeEnabledModels(
  dataDir: string,
  patterns: readonly string[] | null,
): Promise<void> {
  const file = path.join(dataDir, SETTINGS_FILE);
  await changeUnderPiLock<Record<string, unknown>>(file, {
    mode: 0o644,
    parse: (text) => {
      let json: unknown;
      try {
        json = text.trim() === '' ? {} : JSON.parse(text);
      } catch (error) {
        throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json))
        throw new Error(`${file} is not valid: expected an object`);
      return json as Record<string, unknown>;
    },
    edit: (settings) => {
      if (patterns === null) delete settings.enabledModels;
      else settings.enabledModels = [...patterns];
      return true;
    },
  });
}
