import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bashAs, giveTo, identities, nobodyIds, type Identity } from './test-support/bash-as.js';
import { requireSandbox } from './test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

/*
 * The full-output logs of long commands, against a local user who prepared the temp folder: a
 * shared `arbor-tool-output` folder made first by another user (open to all, or closed to us) or
 * a symlink to somewhere they read. Logs must go to a private folder all the same, and bash must
 * keep working.
 */

let base: string;
let tmp: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-logs-'));
  fs.chmodSync(base, 0o755);
  tmp = path.join(base, 'tmp');
  fs.mkdirSync(tmp);
  fs.chmodSync(tmp, 0o1777);
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function uidOf(who: Identity): number {
  return who === 'nobody' ? nobodyIds().uid : process.getuid!();
}

/** A uid other than `who`'s: the hostile local user (only root can give files away). */
function otherUid(who: Identity): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return who === 'nobody' ? { uid: 0, gid: 0 } : nobodyIds();
}

type Trap = 'open folder of another user' | 'closed folder of another user' | 'symlink';

function setTrap(who: Identity, trap: Trap): string {
  const shared = path.join(tmp, 'arbor-tool-output');
  const loot = path.join(base, 'loot');
  fs.mkdirSync(loot);
  fs.chmodSync(loot, 0o777);
  const other = otherUid(who);
  if (trap === 'symlink') {
    fs.symlinkSync(loot, shared);
    if (other) fs.lchownSync(shared, other.uid, other.gid);
  } else {
    fs.mkdirSync(shared);
    if (other) fs.chownSync(shared, other.uid, other.gid);
    fs.chmodSync(shared, trap === 'open folder of another user' ? 0o777 : 0o555);
  }
  return loot;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

const traps: Trap[] = ['open folder of another user', 'closed folder of another user', 'symlink'];

describe.each(identities)('full output logs, as %s', (who) => {
  it.each(traps)(
    'go to a private folder despite a prepared %s',
    async (trap) => {
      const loot = setTrap(who, trap);
      const shared = path.join(tmp, 'arbor-tool-output');
      const workspace = path.join(base, 'ws');
      fs.mkdirSync(workspace);
      giveTo(who, workspace);
      for (const mode of ['sandboxed', 'unsandboxed'] as const) {
        const result = await bashAs(who, {
          workspace: fs.realpathSync(workspace),
          options: { mode },
          command: 'seq 1 5000',
          tmpdir: tmp,
        });
        expect(result.ok).toBe(true);
        const full = result.details?.fullOutputPath;
        expect(full).toBeDefined();
        expect(result.text).toContain(`Full output: ${full}`);
        // The log was whole, in folders of the server's own user that nobody else may open,
        // and went with the process.
        expect(result.log?.lines).toBe(5001);
        expect(result.log!.mode & 0o077).toBe(0);
        expect(path.relative(shared, full!).startsWith('..')).toBe(true);
        expect(result.log!.folders.length).toBe(2);
        for (const folder of result.log!.folders) {
          expect(folder.isDirectory).toBe(true);
          expect(folder.mode).toBe(0o700);
          expect(folder.uid).toBe(uidOf(who));
        }
        expect(fs.existsSync(result.log!.folders.at(-1)!.path)).toBe(false);
      }
      expect(filesUnder(loot)).toEqual([]);
      if (trap !== 'symlink') expect(filesUnder(shared)).toEqual([]);
    },
    60_000,
  );
});
