import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeIssues, JsonFileError, readJsonFile } from '../config/json-file.js';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from './token-estimates.js';
import { CodedError } from '../errors/coded-error.js';

/*
 * Compaction settings, layered like pi's (global, then project): Arbor's built-in defaults, the
 * server's configuration, the workspace's `.arbor/settings.json`, then options passed in code.
 * Each layer names only what it changes. A file that does not parse is an error that names the
 * file and the field; it is never silently ignored.
 */

export interface BranchSummarySettings {
  /** Tokens of the window left out when choosing what a branch summary reads. */
  reserveTokens: number;
}

export interface SummarySettings {
  compaction: CompactionSettings;
  branchSummary: BranchSummarySettings;
}

export const DEFAULT_SUMMARY_SETTINGS: Readonly<SummarySettings> = Object.freeze({
  compaction: { ...DEFAULT_COMPACTION_SETTINGS },
  branchSummary: { reserveTokens: 16384 },
});

const tokens = z.number().int().min(0).max(10_000_000);

export const CompactionSettingsPatchSchema = z.strictObject({
  enabled: z.boolean().optional(),
  reserveTokens: tokens.optional(),
  keepRecentTokens: tokens.optional(),
});

export const BranchSummarySettingsPatchSchema = z.strictObject({
  reserveTokens: tokens.optional(),
});

/** The part of a settings file (server or workspace) that concerns summaries. */
export const SummarySettingsPatchSchema = z.looseObject({
  compaction: CompactionSettingsPatchSchema.optional(),
  branchSummary: BranchSummarySettingsPatchSchema.optional(),
});

export type SummarySettingsPatch = z.infer<typeof SummarySettingsPatchSchema>;

/** Where a workspace keeps its own settings. */
export const WORKSPACE_SETTINGS_FILE = path.join('.arbor', 'settings.json');

export class SummarySettingsError extends CodedError {
  readonly code = 'invalid_settings';
  constructor(message: string) {
    super(message);
    this.name = 'SummarySettingsError';
  }
}

/** Parses one layer; `source` names it in the error. */
export function parseSummarySettings(value: unknown, source: string): SummarySettingsPatch {
  const parsed = SummarySettingsPatchSchema.safeParse(value ?? {});
  if (!parsed.success) throw new SummarySettingsError(`${source}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * The workspace's settings file, or an empty layer when there is none. Read before every model
 * call, so the parsed layer is kept per file and read again only when the file's identity, size or
 * times change (a stat instead of a read, a parse and a validation per turn).
 */
export function readWorkspaceSummarySettings(workspace: string): SummarySettingsPatch {
  const file = path.join(workspace, WORKSPACE_SETTINGS_FILE);
  let version = 'none';
  let json: unknown;
  try {
    const stat = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
    if (stat) version = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    const cached = workspaceLayers.get(file);
    if (cached?.version === version) return cached.layer;
    json = readJsonFile(file);
  } catch (error) {
    if (error instanceof JsonFileError) throw new SummarySettingsError(error.message);
    throw new SummarySettingsError(`${file}: ${(error as Error).message}`);
  }
  const layer = json === undefined ? {} : parseSummarySettings(json, file);
  workspaceLayers.set(file, { version, layer });
  return layer;
}

const workspaceLayers = new Map<string, { version: string; layer: SummarySettingsPatch }>();

function merge(base: SummarySettings, patch: SummarySettingsPatch): SummarySettings {
  const defined = <T extends object>(value: T | undefined): Partial<T> =>
    Object.fromEntries(
      Object.entries(value ?? {}).filter(([, v]) => v !== undefined),
    ) as Partial<T>;
  return {
    compaction: { ...base.compaction, ...defined(patch.compaction) },
    branchSummary: { ...base.branchSummary, ...defined(patch.branchSummary) },
  };
}

/**
 * The settings in force for a session: defaults ← server ← workspace file ← options. Throws
 * `SummarySettingsError` naming the layer and field when one is malformed.
 */
export function resolveSummarySettings(layers: {
  server?: unknown;
  workspace?: string;
  options?: unknown;
}): SummarySettings {
  let settings: SummarySettings = {
    compaction: { ...DEFAULT_SUMMARY_SETTINGS.compaction },
    branchSummary: { ...DEFAULT_SUMMARY_SETTINGS.branchSummary },
  };
  settings = merge(settings, parseSummarySettings(layers.server, 'server settings'));
  if (layers.workspace) settings = merge(settings, readWorkspaceSummarySettings(layers.workspace));
  settings = merge(settings, parseSummarySettings(layers.options, 'session options'));
  return settings;
}

/**
 * Settings scaled to a model's window: the reserve and the kept part each take at most a quarter
 * of it. pi's defaults (16,384 and 20,000) assume a window of 128,000 or more; on a small window
 * they would compact before every call or keep more than fits.
 */
export function settingsForWindow(
  settings: CompactionSettings,
  contextWindow: number,
): CompactionSettings {
  const quarter = Math.max(1, Math.floor(contextWindow / 4));
  return {
    enabled: settings.enabled,
    reserveTokens: Math.min(settings.reserveTokens, quarter),
    keepRecentTokens: Math.min(settings.keepRecentTokens, quarter),
  };
}
