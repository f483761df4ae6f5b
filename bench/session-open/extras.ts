/*
 * `extras.ts FILE`, in a fresh process: Arbor's leaf-move context, append latency and skeleton
 * sizes on a copy of FILE, and whether Arbor's context equals pi 0.73's on it; one JSON line.
 */
import { parseArgs } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { SessionStore } from '../../server/store/session-store.js';

const {
  positionals: [file],
} = parseArgs({ allowPositionals: true, options: {} });
if (!file) throw new Error('usage: extras.ts FILE');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

{
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bench-'));
  try {
    const copy = path.join(dir, path.basename(file));
    fs.copyFileSync(file, copy);
    // Not timed: both stores must give the same context on this file.
    const same =
      JSON.stringify(SessionStore.openReadOnly(copy).buildSessionContext()) ===
      JSON.stringify(SessionManager.open(copy).buildSessionContext());
    const store = SessionStore.open(copy);
    const tree = store.getTree();
    // The skeleton as a snapshot carries it (a TreeNode[] in JSON), and as the WebSocket's
    // per-message deflate sends it (raw deflate at the server's level 1).
    const skeleton = JSON.stringify(tree);
    const gzipped = zlib.gzipSync(skeleton).length;
    const deflated = zlib.deflateRawSync(skeleton, { level: 1 }).length;

    // Leaf moves as a user makes them: back to earlier prompts of the active path (editing and
    // re-running), and between the tips of the branches seen so far. The garbage of the skeleton
    // measurements above is collected first, so a collection it owes does not land in a move.
    globalThis.gc?.();
    const activePath = store.getBranch();
    const earlier = activePath.filter((e) => e.type === 'message' && e.message.role === 'user');
    const nearMoves: number[] = [];
    const tips: string[] = [store.getLeafId()!];
    for (let i = 0; i < 40; i++) {
      const target = earlier[earlier.length - 1 - ((i * 3) % Math.min(earlier.length, 60))]!;
      const t = performance.now();
      store.branch(target.parentId!);
      store.buildSessionContext();
      nearMoves.push(performance.now() - t);
      if (i % 4 === 0) {
        store.appendMessage({
          role: 'user',
          content: [{ type: 'text', text: `edit ${i}` }],
          timestamp: Date.now(),
        });
        tips.push(store.getLeafId()!);
      }
      const tip = tips[i % tips.length]!;
      const s = performance.now();
      store.branch(tip);
      store.buildSessionContext();
      nearMoves.push(performance.now() - s);
    }
    // Worst case: jumps to user messages anywhere in the tree, each on a branch not read before.
    const users = tree.filter((n) => n.role === 'user');
    const farMoves: number[] = [];
    for (let i = 0; i < 40; i++) {
      const target = users[(i * 7919) % users.length]!;
      const t = performance.now();
      store.branch(target.id);
      store.buildSessionContext();
      farMoves.push(performance.now() - t);
    }
    const moves = nearMoves;

    // Appends of realistic entries without fsync, then the cost of one fsync.
    const appends: number[] = [];
    const fsyncs: number[] = [];
    const output = 'line of tool output\n'.repeat(100);
    for (let i = 0; i < 2000; i++) {
      const t = performance.now();
      store.appendMessage({
        role: 'toolResult',
        toolCallId: `call_${i}`,
        toolName: 'bash',
        content: [{ type: 'text', text: output }],
        isError: false,
        timestamp: Date.now(),
      });
      appends.push(performance.now() - t);
      if (i % 100 === 99) {
        const s = performance.now();
        store.sync();
        fsyncs.push(performance.now() - s);
      }
    }
    store.close();
    process.stdout.write(
      `${JSON.stringify({
        which: 'extras',
        nodes: tree.length,
        sameContextAsPi: same ? 1 : 0,
        skeletonBytes: Buffer.byteLength(skeleton),
        skeletonGzipBytes: gzipped,
        skeletonDeflatedBytes: deflated,
        leafMoveMedianMs: median(moves),
        leafMoveP99Ms: percentile(moves, 0.99),
        farMoveMedianMs: median(farMoves),
        farMoveP99Ms: percentile(farMoves, 0.99),
        appendMedianMs: median(appends),
        appendP99Ms: percentile(appends, 0.99),
        fsyncMedianMs: median(fsyncs),
      })}\n`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
