import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  resolveSummarySettings,
  settingsForWindow,
  SummarySettingsError,
  WORKSPACE_SETTINGS_FILE,
} from './compaction-settings.js';

let workspace: string;

beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-settings-'));
});
afterEach(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
});

function writeWorkspaceSettings(text: string): string {
  const file = path.join(workspace, WORKSPACE_SETTINGS_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe('compaction settings', () => {
  it("defaults to pi's values", () => {
    expect(resolveSummarySettings({ workspace })).toEqual({
      compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 },
      branchSummary: { reserveTokens: 16384 },
    });
  });

  it('layers server, workspace file and options, each naming only what it changes', () => {
    writeWorkspaceSettings(
      JSON.stringify({ compaction: { keepRecentTokens: 5000 }, theme: 'dark' }),
    );
    const settings = resolveSummarySettings({
      server: { compaction: { enabled: false, reserveTokens: 8000 } },
      workspace,
      options: { compaction: { enabled: true }, branchSummary: { reserveTokens: 1000 } },
    });
    expect(settings).toEqual({
      compaction: { enabled: true, reserveTokens: 8000, keepRecentTokens: 5000 },
      branchSummary: { reserveTokens: 1000 },
    });
  });

  it('sees a workspace file that is written, rewritten to the same size, or removed', () => {
    expect(resolveSummarySettings({ workspace }).compaction.keepRecentTokens).toBe(20000);
    const file = writeWorkspaceSettings(JSON.stringify({ compaction: { keepRecentTokens: 5000 } }));
    expect(resolveSummarySettings({ workspace }).compaction.keepRecentTokens).toBe(5000);
    writeWorkspaceSettings(JSON.stringify({ compaction: { keepRecentTokens: 6000 } }));
    expect(resolveSummarySettings({ workspace }).compaction.keepRecentTokens).toBe(6000);
    fs.rmSync(file);
    expect(resolveSummarySettings({ workspace }).compaction.keepRecentTokens).toBe(20000);
  });

  it('reports a settings path it cannot look at as a settings error naming the file', () => {
    fs.writeFileSync(path.join(workspace, '.arbor'), 'a file where the folder should be');
    expect(() => resolveSummarySettings({ workspace })).toThrow(SummarySettingsError);
    // Node 20's stat throws ENOTDIR, Node 22's returns nothing and the read throws it: either way
    // the message names the file and the reason.
    const file = path.join(workspace, WORKSPACE_SETTINGS_FILE);
    expect(() => resolveSummarySettings({ workspace })).toThrow(file);
    expect(() => resolveSummarySettings({ workspace })).toThrow(/ENOTDIR/);
  });

  it('names the file and the field of a bad workspace setting, and never ignores it', () => {
    const file = writeWorkspaceSettings(JSON.stringify({ compaction: { reserveTokens: -5 } }));
    expect(() => resolveSummarySettings({ workspace })).toThrow(SummarySettingsError);
    expect(() => resolveSummarySettings({ workspace })).toThrow(
      `${file}: compaction.reserveTokens`,
    );
    writeWorkspaceSettings('{ not json');
    expect(() => resolveSummarySettings({ workspace })).toThrow(/not valid JSON/);
    writeWorkspaceSettings(JSON.stringify({ compaction: { enable: false } }));
    expect(() => resolveSummarySettings({ workspace })).toThrow(/compaction: Unrecognized key/);
    expect(() => resolveSummarySettings({ server: { compaction: { enabled: 'yes' } } })).toThrow(
      /server settings: compaction.enabled/,
    );
  });

  it('scales the reserve and kept budget to a small window', () => {
    const defaults = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
    expect(settingsForWindow(defaults, 128_000)).toEqual(defaults);
    expect(settingsForWindow(defaults, 4000)).toEqual({
      enabled: true,
      reserveTokens: 1000,
      keepRecentTokens: 1000,
    });
  });
});
