import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { TreeNodeSchema } from '../../shared/session-entries.js';
import { SessionStore } from './session-store.js';

/*
 * A session file whose parents form a cycle (put in a session folder by hand or by another
 * program; imports refuse it) still opens and its tree can be sent: the cycle's entries are
 * drawn as roots, as orphans are.
 */

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const TIME = '2026-01-02T03:04:05.000Z';
const user = (id: string, parentId: string | null) =>
  JSON.stringify({
    type: 'message',
    id,
    parentId,
    timestamp: TIME,
    message: { role: 'user', content: id, timestamp: 1 },
  });

it('draws the entries of a parent cycle as roots, so the tree encodes and decodes', () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-cycle-'));
  const file = path.join(dir, 'cycle.jsonl');
  const header = { type: 'session', version: 3, id: 'c1', timestamp: TIME, cwd: dir };
  const lines = [
    JSON.stringify(header),
    user('root0001', null),
    user('aaaa0001', 'bbbb0002'),
    user('bbbb0002', 'aaaa0001'),
    user('kid00003', 'aaaa0001'),
  ];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const store = SessionStore.openReadOnly(file);
  try {
    const tree = store.getTree();
    // What a client reads of it: the same nodes through JSON and the protocol's schema.
    expect(z.array(TreeNodeSchema).parse(JSON.parse(JSON.stringify(tree)))).toEqual(tree);
    const parents = Object.fromEntries(tree.map((node) => [node.id, node.parentId]));
    expect(parents).toEqual({
      root0001: null,
      aaaa0001: null,
      bbbb0002: null,
      kid00003: 'aaaa0001',
    });
    expect(store.buildSessionContext('kid00003').messages.length).toBeGreaterThan(0);
  } finally {
    store.close();
  }
});

it('gives the context at an entry of a cycle whatever was asked before (no cached ancestry)', () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-cycle-'));
  const file = path.join(dir, 'cycle.jsonl');
  const header = { type: 'session', version: 3, id: 'c2', timestamp: TIME, cwd: dir };
  const lines = [
    JSON.stringify(header),
    user('aaaa0001', 'cccc0003'),
    user('bbbb0002', 'aaaa0001'),
    user('cccc0003', 'bbbb0002'),
    user('kid00004', 'bbbb0002'),
    // The leaf on open lies apart, so what is asked first is up to the caller.
    user('other005', null),
  ];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const ids = ['aaaa0001', 'bbbb0002', 'cccc0003', 'kid00004'];
  const fresh = (id: string) => {
    const store = SessionStore.openReadOnly(file);
    try {
      return store.buildSessionContext(id);
    } finally {
      store.close();
    }
  };
  const alone = Object.fromEntries(ids.map((id) => [id, fresh(id)]));
  // The walk from an entry stops where an entry would repeat: the cycle, entered at the entry.
  expect(alone.kid00004!.messages.map((m) => ('content' in m ? m.content : ''))).toEqual([
    'cccc0003',
    'aaaa0001',
    'bbbb0002',
    'kid00004',
  ]);
  for (const order of [ids, [...ids].reverse(), ['bbbb0002', 'kid00004', 'aaaa0001', 'cccc0003']]) {
    const store = SessionStore.openReadOnly(file);
    try {
      for (const id of order)
        expect(store.buildSessionContext(id), `${id} after ${order}`).toEqual(alone[id]);
    } finally {
      store.close();
    }
  }
});
