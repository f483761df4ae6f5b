/*
 * `npx tsx bench/ws/tree-on-the-wire.ts`: the tree skeleton of bench/session-open's 20,000-entry
 * session as a snapshot carries it, a `TreeNode[]` in JSON, raw and deflated as the server's
 * permessage-deflate sends it (raw deflate at the server's level 1, and at zlib's default 6), and
 * what it costs: the server's `JSON.stringify` and deflate, the page's inflate, `JSON.parse` and
 * check (zod's `TreeNodeSchema`). Times are medians (and minimums) of ROUNDS runs in this
 * process, on this machine's V8: the page's work in Chromium scales alike. Decision 033 reads the
 * figures (product §7: under 2 MB on the wire, compressed by a library).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { z } from 'zod';
import { SessionStore } from '../../server/store/session-store.js';
import { TreeNodeSchema } from '../../shared/session-entries.js';
import { generateSession } from '../session-open/generate-session.js';

const ROUNDS = Number(process.env.ROUNDS ?? 21);
const ENTRIES = 20_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-tree-wire-'));
try {
  const store = SessionStore.open(generateSession(dir, ENTRIES));
  const tree = store.getTree();
  const plain = JSON.stringify(tree);
  const plainDeflated = zlib.deflateRawSync(plain, { level: 1 });
  const treeArray = z.array(TreeNodeSchema);

  const time = (work: () => unknown): string => {
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      work();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] as number;
    return `${median.toFixed(1)} ms (min ${(times[0] as number).toFixed(1)})`;
  };
  const size = (bytes: number) =>
    `${bytes.toLocaleString('en')} B (${(bytes / 2 ** 20).toFixed(2)} MiB)`;

  const rows: [string, string][] = [
    ['bytes, raw', size(Buffer.byteLength(plain))],
    ["bytes on the wire, deflated at level 1 (the server's)", size(plainDeflated.length)],
    ['bytes, deflated at level 6', size(zlib.deflateRawSync(plain).length)],
    ['server: JSON.stringify', time(() => JSON.stringify(tree))],
    [
      'server: deflate at level 1 (zlib thread)',
      time(() => zlib.deflateRawSync(plain, { level: 1 })),
    ],
    ['page: inflate', time(() => zlib.inflateRawSync(plainDeflated))],
    ['page: JSON.parse + check', time(() => treeArray.parse(JSON.parse(plain)))],
  ];
  console.log(
    `tree skeleton of ${tree.length} entries, ${ROUNDS} runs each, load ${os.loadavg()[0]?.toFixed(1)}\n`,
  );
  console.log('| what | TreeNode[] JSON |');
  console.log('| --- | --- |');
  for (const [what, figure] of rows) console.log(`| ${what} | ${figure} |`);
  store.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
