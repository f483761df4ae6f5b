// `npm start` builds only what is missing, so a fresh clone runs with one command.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const run = (cmd) => execSync(cmd, { stdio: 'inherit' });
if (!existsSync('dist/server/cli/main.js')) run('npm run build:server');
if (!existsSync('dist/web/index.html')) run('npm run build:web');
