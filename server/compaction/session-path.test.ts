import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../store/session-store.js';
import { randomSession } from '../store/test-support/random-session.js';
import { pathNewestFirst } from './session-path.js';

/*
 * Reading a path entry by entry gives exactly `getBranch`, on files with branches, leaf markers
 * (written at every leaf move and read back from the file), compactions and summaries, at every
 * entry of the tree, and on pi's own fixture files.
 */

const FIXTURES = '/work/shared/fixtures/pi';
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-session-path-'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function expectSameAtEveryEntry(store: SessionStore): number {
  const ids = [store.getLeafId(), null, ...store.getTree().map((node) => node.id)];
  for (const id of ids) {
    const walked = [...pathNewestFirst(store, id)].reverse();
    const branch = store.getBranch(id);
    expect(walked.length, `path to ${id}`).toBe(branch.length);
    walked.forEach((entry, i) => expect(entry, `path to ${id}, entry ${i}`).toBe(branch[i]));
  }
  return ids.length;
}

describe('reading a path newest first', () => {
  it('gives getBranch’s entries at every entry of random files with leaf markers', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const dir = path.join(tmp, `random-${seed}`);
      const written = SessionStore.create({ cwd: tmp, sessionDir: dir });
      randomSession(written, seed, 150);
      const file = written.file!;
      written.close();
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

  it('gives getBranch’s entries on pi’s fixture files', () => {
    for (const name of fs.readdirSync(FIXTURES).filter((file) => file.endsWith('.jsonl'))) {
      if (name === 'rpc-events.jsonl') continue;
      // v1 files are migrated on open, so the store gets a copy.
      const copy = path.join(tmp, name);
      fs.copyFileSync(path.join(FIXTURES, name), copy);
      fs.chmodSync(copy, 0o644);
      const store = SessionStore.open(copy);
      try {
        expectSameAtEveryEntry(store);
      } finally {
        store.close();
      }
    }
  });
});
