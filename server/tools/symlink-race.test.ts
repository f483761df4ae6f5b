import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSymlinkRace, type RaceReport } from './test-support/symlink-race.js';

/*
 * Issue 11, item 2: another process swaps a directory (and a file) of the workspace with a
 * symbolic link to the data folder while the file tools work through those paths. Nothing may
 * be read from, listed from or written to the outside, whoever the server runs as.
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = 120;
const spawnOptions = { cwd: repo, encoding: 'utf8', timeout: 110_000 } as const;

let base: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-race-'));
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function expectConfined(report: RaceReport): void {
  // The swapper really ran and the calls really happened, some of them successfully.
  expect(report.swaps).toBeGreaterThan(1000);
  expect(report.calls).toBeGreaterThanOrEqual(ROUNDS * 7);
  expect(report.succeeded).toBeGreaterThan(0);
  expect({
    outsideReads: report.outsideReads,
    outsideListings: report.outsideListings,
    outsideWrites: report.outsideWrites,
  }).toEqual({ outsideReads: 0, outsideListings: 0, outsideWrites: [] });
}

describe('a symlink swapped between check and use', () => {
  it(`never lets read, write, edit, ls, grep or find act outside (as uid ${process.getuid?.()})`, async () => {
    expectConfined(await runSymlinkRace(base, ROUNDS));
  }, 120_000);

  it('never lets them act outside when the server runs as an unprivileged user', () => {
    // As root, the attack runs as nobody in a folder nobody owns (under runuser, or — where nobody
    // cannot read this repository — dropping to nobody once loaded); otherwise as this (already
    // unprivileged) user.
    const driver = path.join(repo, 'server/tools/test-support/symlink-race-driver.ts');
    const command = [process.execPath, '--import', 'tsx', driver, base, String(ROUNDS)];
    let run;
    if (process.getuid?.() === 0) {
      const uid = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout);
      const gid = Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout);
      fs.chownSync(base, uid, gid);
      const tsx = path.join(repo, 'node_modules/tsx/package.json');
      const readable = spawnSync('runuser', [
        '-u',
        'nobody',
        '--',
        'test',
        '-r',
        driver,
        '-a',
        '-r',
        tsx,
        '-a',
        '-x',
        process.execPath,
      ]);
      run =
        readable.status === 0
          ? spawnSync('runuser', ['-u', 'nobody', '--', ...command], spawnOptions)
          : spawnSync(command[0]!, [...command.slice(1), String(uid), String(gid)], spawnOptions);
      expect(fs.statSync(path.join(base, 'ws')).uid).toBe(uid);
    } else {
      run = spawnSync(command[0]!, command.slice(1), spawnOptions);
    }
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as RaceReport;
    expectConfined(report);
  }, 120_000);
});
