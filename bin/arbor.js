#!/usr/bin/env node
// The `arbor` command. It runs the compiled CLI; `npm run build` (or `npm start`) produces it.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Arbor needs Node 22.19 or later (pi's model layer does). `npm start` and `npm test` run the Node
// 24 that `npm ci` installs in node_modules (Linux x64); started by hand with an older Node, say
// what to run instead of failing somewhere inside.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  const bundled = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
  process.stderr.write(
    `arbor: Node ${process.versions.node} is too old; Arbor needs Node 22.19 or later.\n` +
      (existsSync(bundled)
        ? `Run it with the Node that npm installed: npm start, or ${bundled} ${fileURLToPath(import.meta.url)}\n`
        : 'Install Node 24 (https://nodejs.org), or run npm ci on Linux x64, which brings it.\n'),
  );
  process.exit(1);
}

const main = fileURLToPath(new URL('../dist/server/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('arbor: the compiled CLI is missing; run `npm run build` first.\n');
  process.exit(1);
}
const { runCli } = await import(pathToFileURL(main).href);
process.exitCode = await runCli(process.argv.slice(2));
