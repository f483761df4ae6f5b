import fs from 'node:fs';
import path from 'node:path';
import { createGrepTool } from '../grep-tool.js';
import { runSymlinkRace } from './symlink-race.js';

/*
 * Runs the symlink-swap attack (symlink-race.ts) in its own process, so a test can run it as
 * another user: `node --import tsx symlink-race-driver.ts BASE ROUNDS [UID GID]` prints the report
 * as JSON. Started as root with UID and GID (where that user cannot read this repository), it
 * loads everything and starts a grep worker first, then becomes that user for the attack.
 */

const [base, rounds, uid, gid] = process.argv.slice(2);
if (!base || !rounds) throw new Error('usage: symlink-race-driver.ts BASE ROUNDS [UID GID]');
if (uid !== undefined && gid !== undefined) {
  // A finished search leaves its worker waiting for the next one, already loaded.
  const warm = path.join(base, 'warm-up');
  fs.mkdirSync(warm);
  const grep = createGrepTool(warm);
  await grep.execute(grep.parse({ pattern: 'x' }), {
    signal: new AbortController().signal,
    onUpdate: () => {},
  });
  fs.rmSync(warm, { recursive: true });
  if (!process.setgroups || !process.setgid || !process.setuid)
    throw new Error('cannot change user on this platform');
  process.setgroups([]);
  process.setgid(Number(gid));
  process.setuid(Number(uid));
}
const report = await runSymlinkRace(base, Number(rounds));
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
