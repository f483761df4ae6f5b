import { runSymlinkRace } from './symlink-race.js';

/*
 * Runs the symlink-swap attack (symlink-race.ts) in its own process, so a test can run it as
 * another user: `node --import tsx symlink-race-driver.ts BASE ROUNDS` prints the report as JSON.
 */

const [base, rounds] = process.argv.slice(2);
if (!base || !rounds) throw new Error('usage: symlink-race-driver.ts BASE ROUNDS');
const report = await runSymlinkRace(base, Number(rounds));
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
