import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../store/session-store.js';
import { randomSession } from '../test-support/random-session.js';
import { prng } from '../../shared/prng.js';
import {
  collectEntriesForBranchSummary,
  collectEntriesForBranchSummarySliced,
} from './branch-summary.js';
import { pathNewestFirst } from './session-path.js';

/*
 * Reading a path entry by entry gives exactly `getBranch`, on files with branches, leaf markers
 * (written at every leaf move and read back from the file), compactions and summaries, at every
 * entry of the tree, and on pi's own fixture files. Collecting a left branch that way (pausing
 * for the event loop) gives what the synchronous collection gives (compared with pi's own in
 * pi-parity.test.ts).
 */

const FIXTURES = '/work/shared/fixtures/pi';
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-session-path-'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Compares at every entry, or at a spread of `most` of them in a large file. */
function expectSameAtEveryEntry(store: SessionStore, most = Infinity): number {
  const all = store.getTree().map((node) => node.id);
  const step = Math.max(1, Math.ceil(all.length / most));
  const ids = [store.getLeafId(), null, ...all.filter((_, i) => i % step === 0), all.at(-1)!];
  for (const id of ids) {
    const walked = [...pathNewestFirst(store, id)].reverse();
    const branch = store.getBranch(id);
    expect(walked.length, `path to ${id}`).toBe(branch.length);
    walked.forEach((entry, i) => expect(entry, `path to ${id}, entry ${i}`).toBe(branch[i]));
  }
  return ids.length;
}

function randomFile(seed: number): string {
  const dir = path.join(tmp, `random-${seed}`);
  const written = SessionStore.create({ cwd: tmp, sessionDir: dir });
  randomSession(written, seed, 150);
  const file = written.file!;
  written.close();
  return file;
}

describe('reading a path newest first', () => {
  it('gives getBranch’s entries at every entry of random files with leaf markers', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const file = randomFile(seed);
      const markers = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"type":"custom"') && line.includes('leaf')).length;
      expect(markers, `seed ${seed} writes leaf markers`).toBeGreaterThan(0);
      const store = SessionStore.openReadOnly(file);
      try {
        expect(expectSameAtEveryEntry(store)).toBeGreaterThan(100);
      } finally {
        store.close();
      }
    }
  });

  it('gives getBranch’s entries on pi’s fixture files, at up to 300 entries each', () => {
    for (const name of fs.readdirSync(FIXTURES).filter((file) => file.endsWith('.jsonl'))) {
      if (name === 'rpc-events.jsonl') continue;
      // v1 files are migrated on open, so the store gets a copy.
      const copy = path.join(tmp, name);
      fs.copyFileSync(path.join(FIXTURES, name), copy);
      fs.chmodSync(copy, 0o644);
      const store = SessionStore.open(copy);
      try {
        expect(expectSameAtEveryEntry(store, 300)).toBeGreaterThan(3);
      } finally {
        store.close();
      }
    }
  });

  it('collects a left branch as the synchronous collection does', async () => {
    const rand = prng(11);
    let compared = 0;
    for (let seed = 20; seed <= 27; seed++) {
      const store = SessionStore.openReadOnly(randomFile(seed));
      try {
        const ids = store.getTree().map((node) => node.id);
        const pick = () => ids[Math.floor(rand() * ids.length)] ?? null;
        for (let i = 0; i < 40; i++) {
          const from = rand() < 0.1 ? null : pick();
          const to = rand() < 0.1 ? null : pick();
          const sliced = await collectEntriesForBranchSummarySliced(store, from, to);
          const sync = collectEntriesForBranchSummary(store, from, to);
          expect(sliced).toEqual(sync);
          compared += sync.entries.length > 0 ? 1 : 0;
        }
      } finally {
        store.close();
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});
