/*
 * `npx tsx bench/ws/tree-on-the-wire.ts`: the tree skeleton of bench/session-open's 20,000-entry
 * session as a snapshot carries it, plain `TreeNode[]` JSON against the columnar encoding
 * (shared/tree-wire.ts), each raw and deflated as the server's permessage-deflate sends it (raw
 * deflate at the server's level 1, and at zlib's default 6), and what each costs: the server's encoding and
 * deflate, the page's inflate, `JSON.parse` and check (zod's `TreeNodeSchema` for plain JSON,
 * `decodeTree` for the columns). Times are medians (and minimums) of ROUNDS runs in this process,
 * on this machine's V8: the page's work in Chromium scales alike. Decision 082 reads the figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { z } from 'zod';
import { SessionStore } from '../../server/store/session-store.js';
import { TreeNodeSchema } from '../../shared/session-entries.js';
import { decodeTree, encodeTree } from '../../shared/tree-wire.js';
import { generateSession } from '../session-open/generate-session.js';

const ROUNDS = Number(process.env.ROUNDS ?? 21);
const ENTRIES = 20_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-tree-wire-'));
try {
  const store = SessionStore.open(generateSession(dir, ENTRIES));
  const tree = store.getTree();
  const plain = JSON.stringify(tree);
  const columns = JSON.stringify(encodeTree(tree));
  const plainDeflated = zlib.deflateRawSync(plain);
  const columnsDeflated = zlib.deflateRawSync(columns);
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

  const rows: [string, string, string][] = [
    ['bytes, raw', size(Buffer.byteLength(plain)), size(Buffer.byteLength(columns))],
    [
      'bytes on the wire, deflated at level 6',
      size(plainDeflated.length),
      size(columnsDeflated.length),
    ],
    [
      'server: encode (JSON.stringify)',
      time(() => JSON.stringify(tree)),
      time(() => JSON.stringify(encodeTree(tree))),
    ],
    [
      "bytes on the wire, deflated at level 1 (the server's)",
      size(zlib.deflateRawSync(plain, { level: 1 }).length),
      size(zlib.deflateRawSync(columns, { level: 1 }).length),
    ],
    [
      'server: deflate at level 1 (zlib thread)',
      time(() => zlib.deflateRawSync(plain, { level: 1 })),
      time(() => zlib.deflateRawSync(columns, { level: 1 })),
    ],
    [
      "server: deflate at zlib's default level 6",
      time(() => zlib.deflateRawSync(plain)),
      time(() => zlib.deflateRawSync(columns)),
    ],
    [
      'page: inflate',
      time(() => zlib.inflateRawSync(plainDeflated)),
      time(() => zlib.inflateRawSync(columnsDeflated)),
    ],
    [
      'page: JSON.parse + check',
      time(() => treeArray.parse(JSON.parse(plain))),
      time(() => decodeTree(JSON.parse(columns))),
    ],
  ];
  console.log(
    `tree skeleton of ${tree.length} entries, ${ROUNDS} runs each, load ${os.loadavg()[0]?.toFixed(1)}\n`,
  );
  console.log('| what | plain TreeNode[] JSON | columns (tree-wire) |');
  console.log('| --- | --- | --- |');
  for (const [what, a, b] of rows) console.log(`| ${what} | ${a} | ${b} |`);
  store.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
