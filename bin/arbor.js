#!/usr/bin/env node
// The `arbor` command. It runs the compiled CLI; `npm run build` (or `npm start`) produces it.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const main = fileURLToPath(new URL('../dist/server/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('arbor: the compiled CLI is missing; run `npm run build` first.\n');
  process.exit(1);
}
const { runCli } = await import(pathToFileURL(main).href);
process.exitCode = await runCli(process.argv.slice(2));
