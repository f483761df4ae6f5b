import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RESOURCE_BYTES, readConfined } from './confined-read.js';
import { expandSkillCommand } from './resource-prompt.js';
import { loadWorkspaceResources } from './workspace-resources.js';

/*
 * Hostile files in the workspace: whoever writes the workspace (a member, the model they drive)
 * must not get the server to put files from elsewhere into the prompt, nor hang or flood it.
 */

let root: string;
let workspace: string;
let dataDir: string;
let secret: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-confined-')));
  workspace = path.join(root, 'ws');
  dataDir = path.join(root, 'data');
  secret = path.join(root, 'secret.md');
  fs.mkdirSync(path.join(workspace, '.pi/skills'), { recursive: true });
  fs.mkdirSync(path.join(workspace, '.pi/prompts'), { recursive: true });
  fs.mkdirSync(dataDir);
  fs.writeFileSync(secret, '---\ndescription: stolen\n---\nTOP SECRET API KEY\n');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const load = (teamMode = true) =>
  loadWorkspaceResources({
    workspace,
    dataDir,
    policy: { enabled: true, projectTrusted: true, parents: !teamMode },
  });

function everything(loaded: ReturnType<typeof load>): string {
  return JSON.stringify([loaded.contextFiles, loaded.skills, loaded.templates]);
}

describe('resources stay inside the workspace and the data folder', () => {
  it('does not follow an AGENTS.md, skill or template symlinked out of the workspace', () => {
    fs.symlinkSync(secret, path.join(workspace, 'AGENTS.md'));
    fs.mkdirSync(path.join(workspace, '.pi/skills/steal'));
    fs.symlinkSync(secret, path.join(workspace, '.pi/skills/steal/SKILL.md'));
    fs.symlinkSync(secret, path.join(workspace, '.pi/skills/loose.md'));
    fs.symlinkSync(root, path.join(workspace, '.pi/skills/up'));
    fs.symlinkSync(secret, path.join(workspace, '.pi/prompts/steal.md'));
    const loaded = load();
    expect(everything(loaded)).not.toContain('TOP SECRET');
    expect(loaded.contextFiles).toEqual([]);
    expect(loaded.skills).toEqual([]);
    expect(loaded.templates).toEqual([]);
    const outside = loaded.warnings.filter((w) => w.message.includes('leads outside'));
    expect(outside.map((w) => path.relative(workspace, w.path)).sort()).toEqual(
      [
        'AGENTS.md',
        '.pi/prompts/steal.md',
        '.pi/skills/loose.md',
        '.pi/skills/steal/SKILL.md',
        '.pi/skills/up',
      ].sort(),
    );
  });

  it('follows a symlink that stays inside the workspace', () => {
    fs.writeFileSync(path.join(workspace, 'docs.md'), 'Inside instructions.\n');
    fs.symlinkSync('docs.md', path.join(workspace, 'AGENTS.md'));
    expect(load().contextFiles.map((f) => f.content)).toEqual(['Inside instructions.\n']);
  });

  it('a /skill: whose file was swapped for a symlink out after loading is not read', () => {
    const dir = path.join(workspace, '.pi/skills/ok');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\ndescription: fine\n---\nFine.\n');
    const { skills } = load();
    fs.rmSync(path.join(dir, 'SKILL.md'));
    fs.symlinkSync(secret, path.join(dir, 'SKILL.md'));
    expect(expandSkillCommand('/skill:ok', skills)).toBe('/skill:ok');
  });

  it('skips a FIFO without hanging, and a file over the size cap with a warning', () => {
    execFileSync('mkfifo', [path.join(workspace, 'AGENTS.md')]);
    fs.writeFileSync(path.join(workspace, 'CLAUDE.md'), 'x'.repeat(MAX_RESOURCE_BYTES + 1));
    fs.writeFileSync(
      path.join(workspace, '.pi/prompts/huge.md'),
      'y'.repeat(10 * MAX_RESOURCE_BYTES),
    );
    const loaded = load();
    expect(loaded.contextFiles).toEqual([]);
    expect(loaded.templates).toEqual([]);
    const messages = loaded.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/CLAUDE\.md is \d+ bytes, over the 262144-byte limit/);
    expect(messages).toMatch(/huge\.md is \d+ bytes, over the/);
  });

  it('reads no device file, even inside the folder it may read', () => {
    // No device can be made in a workspace without privileges: read one where it lives.
    expect(readConfined('/dev/zero', '/dev')).toEqual({
      ok: false,
      problem: 'is not a regular file; not read',
    });
  });

  it('in team mode reads nothing above the workspace', () => {
    fs.writeFileSync(path.join(root, 'AGENTS.md'), 'Operator notes above the workspace.\n');
    fs.mkdirSync(path.join(root, '.agents/skills/up'), { recursive: true });
    fs.writeFileSync(
      path.join(root, '.agents/skills/up/SKILL.md'),
      '---\ndescription: up\n---\nUp.\n',
    );
    expect(everything(load(true))).not.toContain('Operator notes');
    expect(load(true).skills).toEqual([]);
    // Alone, as pi: the parents are read.
    expect(everything(load(false))).toContain('Operator notes');
  });
});

describe('an untrusted workspace', () => {
  const untrusted = (dir: string) =>
    loadWorkspaceResources({
      workspace: dir,
      dataDir,
      policy: {
        enabled: true,
        projectTrusted: false,
        parents: false,
        untrustedReason: 'Not trusted.',
      },
    });

  it('is named in a warning only when it holds something trust would load', () => {
    const bare = path.join(root, 'bare');
    fs.mkdirSync(bare);
    // Before, every member got "not loaded" on every load of a workspace with nothing to load.
    expect(untrusted(bare).warnings).toEqual([]);
    fs.writeFileSync(path.join(bare, 'AGENTS.md'), '# Rules\n');
    expect(untrusted(bare).warnings).toEqual([{ path: bare, message: 'Not trusted.' }]);
    expect(untrusted(workspace).warnings).toEqual([{ path: workspace, message: 'Not trusted.' }]);
  });
});
