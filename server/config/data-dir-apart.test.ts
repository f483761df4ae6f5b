import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runArbor } from '../cli/test-support/arbor-cli.js';
import { ConfigError, loadConfig } from './load-config.js';

/*
 * A data folder a workspace's tools can reach lets a member edit users.json and make themselves
 * admin. The server refuses to start with one, comparing real paths (decision 053).
 */

let dir: string;
let workspace: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-apart-')));
  workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function configWith(dataDir: string, workspaces = [workspace], env = {}) {
  return () => loadConfig({ flags: { dataDir, workspaces }, env, cwd: dir, homeDir: dir });
}

describe('a data folder that a workspace can reach', () => {
  it('is refused inside a workspace, even before it exists, naming both paths', () => {
    const data = path.join(workspace, '.arbor');
    expect(configWith(data)).toThrow(ConfigError);
    expect(configWith(data)).toThrow(
      new RegExp(`data folder ${data} \\(from --data\\) is inside the workspace ${workspace}\\b`),
    );
    expect(configWith(path.join(workspace, 'deep', 'er', '.arbor'))).toThrow(
      /is inside the workspace/,
    );
  });

  it('is refused when it is the workspace itself', () => {
    expect(configWith(workspace)).toThrow(new RegExp(`is the workspace ${workspace}\\b`));
  });

  it('is refused when it holds a workspace', () => {
    const data = path.join(dir, 'data');
    const inner = path.join(data, 'project');
    fs.mkdirSync(inner, { recursive: true });
    expect(configWith(data, [inner])).toThrow(new RegExp(`holds the workspace ${inner}\\b`));
  });

  it('is refused through a symlink that leads into a workspace, or to one', () => {
    const link = path.join(dir, 'data-link');
    fs.symlinkSync(path.join(workspace, 'hidden'), link);
    // The link's target does not exist yet: its nearest existing parent decides.
    expect(configWith(path.join(link, '.arbor'))).toThrow(
      new RegExp(`really ${path.join(workspace, 'hidden', '.arbor')}.*inside the workspace`),
    );
    const wsLink = path.join(dir, 'ws-link');
    fs.symlinkSync(workspace, wsLink);
    expect(configWith(path.join(dir, 'data'), [wsLink])).not.toThrow();
    expect(configWith(path.join(wsLink, '.arbor'), [wsLink])).toThrow(/inside the workspace/);
  });

  it('is refused from ARBOR_DATA_DIR and from the default ~/.arbor (running in the home folder)', () => {
    expect(() =>
      loadConfig({ env: { ARBOR_DATA_DIR: path.join(workspace, 'd') }, cwd: workspace }),
    ).toThrow(/\(from ARBOR_DATA_DIR\) is inside the workspace/);
    expect(() => loadConfig({ env: {}, cwd: workspace, homeDir: workspace })).toThrow(
      /\(from the default\) is inside the workspace/,
    );
  });

  it('is accepted beside the workspace, even with a shared name prefix', () => {
    const config = configWith(`${workspace}-data`)();
    expect(config.dataDir).toBe(`${workspace}-data`);
  });

  it('stops the real CLI with exit code 2 and the message, before anything is written', async () => {
    const data = path.join(workspace, '.arbor');
    const result = await runArbor([
      'serve',
      '--port',
      '0',
      '--data',
      data,
      '--workspace',
      workspace,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`arbor serve: The data folder ${data} .*inside the workspace ${workspace}\\b`),
    );
    expect(result.stdout).not.toMatch(/Arbor is running/);
    expect(fs.existsSync(data)).toBe(false);
  }, 30_000);
});

describe('a config file that a workspace can reach', () => {
  it('is refused, through a link too: an edit of it would add /etc as a workspace', async () => {
    // The member's edit, as the file tools would make it; it takes effect at the next start.
    const inside = path.join(workspace, 'arbor.json');
    fs.writeFileSync(inside, JSON.stringify({ workspaces: [workspace, '/etc'] }));
    const link = path.join(dir, 'arbor-config.json');
    fs.symlinkSync(inside, link);
    const data = path.join(dir, 'data');
    const result = await runArbor(['serve', '--port', '0', '--data', data], {
      ARBOR_CONFIG: link,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `The config file ${link} (really ${inside}) (from ARBOR_CONFIG) is inside the workspace ${workspace}.`,
    );
    expect(result.stdout).not.toMatch(/Arbor is running/);
  }, 30_000);

  it('is accepted apart from every workspace', () => {
    const apart = path.join(dir, 'arbor.json');
    fs.writeFileSync(apart, JSON.stringify({ workspaces: [workspace] }));
    const config = loadConfig({ env: { ARBOR_CONFIG: apart }, cwd: dir, homeDir: dir });
    expect(config.workspaces.map((w) => w.path)).toEqual([workspace]);
  });
});
