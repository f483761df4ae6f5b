import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runArborCli } from '../app/test-support/run-cli.js';
import { PI16_NODE } from '../store/test-support/pi16-oracle.js';

/*
 * `arbor workspace trust|untrust|status`: the admin's decision, in pi's own trust file, so pi 1.6
 * reads the same decision back.
 */

const PI16_INDEX = path.resolve(
  'oracles/pi16/node_modules/@earendil-works/pi-coding-agent/dist/index.js',
);

let root: string;
let dataDir: string;
let workspace: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-trust-cli-')));
  dataDir = path.join(root, 'data');
  workspace = path.join(root, 'ws');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function piDecision(dir: string): unknown {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(PI16_INDEX).href)}); process.stdout.write(JSON.stringify(new m.ProjectTrustStore(process.argv[1]).get(process.argv[2])));`;
  return JSON.parse(
    execFileSync(PI16_NODE, ['--input-type=module', '-e', script, dataDir, dir], {
      encoding: 'utf8',
      env: { ...process.env, PI_CODING_AGENT_DIR: dataDir, PI_OFFLINE: '1' },
    }),
  );
}

describe('arbor workspace', () => {
  it('writes the decision to pi’s trust.json, which pi 1.6 reads the same way', () => {
    const trust = runArborCli(['workspace', 'trust', workspace, '--data', dataDir]);
    expect(trust.status).toBe(0);
    expect(trust.stdout).toMatch(/^Trusted /);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'trust.json'), 'utf8'))).toEqual({
      [workspace]: true,
    });
    // pi's nearest-folder rule: a folder below a trusted one is trusted too.
    expect(piDecision(path.join(workspace, 'sub'))).toBe(true);
    expect(
      runArborCli(['workspace', 'status', path.join(workspace, 'sub'), '--data', dataDir]).stdout,
    ).toMatch(/: trusted/);

    expect(runArborCli(['workspace', 'untrust', workspace, '--data', dataDir]).status).toBe(0);
    expect(piDecision(workspace)).toBe(false);
  });

  it('names a folder that does not exist, and shows the usage for a bad command', () => {
    const missing = runArborCli(['workspace', 'trust', path.join(root, 'nope'), '--data', dataDir]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
    expect(runArborCli(['workspace', 'bless', workspace]).status).toBe(2);
  });
});
