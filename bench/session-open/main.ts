/*
 * bench/session-open: Arbor's session store against pi 0.73's SessionManager on the same
 * 20,000-entry, ~28 MB session (written by pi's own SessionManager), alternating in one run, each
 * measurement in a fresh process. Run: `npm run bench session-open` (or
 * `npx tsx --expose-gc bench/session-open/main.ts`). ROUNDS=n sets the rounds (default 5).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSession } from './generate-session.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = path.join(here, '..', '.data', 'session-open');
const ENTRIES = 20_000;
const rounds = Number(process.env.ROUNDS ?? 5);

function sessionFile(): string {
  const existing = fs.existsSync(dataDir)
    ? fs.readdirSync(dataDir).find((name) => name.endsWith('.jsonl'))
    : undefined;
  if (existing) return path.join(dataDir, existing);
  process.stdout.write(`generating a ${ENTRIES}-entry session with pi's SessionManager…\n`);
  return generateSession(dataDir, ENTRIES);
}

interface Run {
  which: string;
  ms: number;
  peakMB: number;
  retainedMB: number;
  messages: number;
}

function measure(which: string, file: string): Record<string, number | string> {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', path.join(here, 'measure.ts'), which, file],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`measure ${which} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Record<string, number | string>;
}

/** Bytes, with MB (2^20 bytes, as every figure here) beside them. */
const size = (bytes: number): string =>
  `${bytes.toLocaleString('en-US')} bytes (${(bytes / (1024 * 1024)).toFixed(2)} MB)`;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const file = sessionFile();
const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n').length;
process.stdout.write(
  `session: ${path.basename(file)}, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB, ${lines - 1} entries\n\n`,
);

const runs: Run[] = [];
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ['pi', 'arbor'] : ['arbor', 'pi'];
  for (const which of order) {
    const run = measure(which, file) as unknown as Run;
    runs.push(run);
    process.stdout.write(
      `round ${round + 1} ${which.padEnd(5)} ${run.ms.toFixed(0).padStart(6)} ms  peak +${run.peakMB.toFixed(0)} MB  retained +${run.retainedMB.toFixed(0)} MB  ${run.messages} messages\n`,
    );
  }
}
const of = (which: string, key: 'ms' | 'peakMB' | 'retainedMB') =>
  median(runs.filter((r) => r.which === which).map((r) => r[key]));
const [piMs, arborMs] = [of('pi', 'ms'), of('arbor', 'ms')];
const [piPeak, arborPeak] = [of('pi', 'peakMB'), of('arbor', 'peakMB')];
const [piRetained, arborRetained] = [of('pi', 'retainedMB'), of('arbor', 'retainedMB')];
process.stdout.write(
  `\nopen + context (median of ${rounds}):\n` +
    `  pi     ${piMs.toFixed(0)} ms, peak +${piPeak.toFixed(0)} MB, retained +${piRetained.toFixed(0)} MB\n` +
    `  arbor  ${arborMs.toFixed(0)} ms, peak +${arborPeak.toFixed(0)} MB, retained +${arborRetained.toFixed(0)} MB (skeleton of every entry included)\n` +
    `  ratio  time ${(arborMs / piMs).toFixed(2)}, peak memory ${(arborPeak / piPeak).toFixed(2)}, retained ${(arborRetained / piRetained).toFixed(2)}  (goal ≤ 0.5)\n\n`,
);

const extras = measure('extras', file);
const n = (key: string) => Number(extras[key]);
process.stdout.write(
  `leaf move + context, to earlier prompts and branch tips: median ${n('leafMoveMedianMs').toFixed(2)} ms, p99 ${n('leafMoveP99Ms').toFixed(2)} ms (goal < 5 ms)\n` +
    `leaf move + context, jump to a branch never read: median ${n('farMoveMedianMs').toFixed(2)} ms, p99 ${n('farMoveP99Ms').toFixed(2)} ms\n` +
    `append (2 KB tool result, no fsync): median ${n('appendMedianMs').toFixed(3)} ms, p99 ${n('appendP99Ms').toFixed(3)} ms (goal < 1 ms median)\n` +
    `fsync after 100 appends: median ${n('fsyncMedianMs').toFixed(2)} ms\n` +
    `same context as pi on this file: ${n('sameContextAsPi') === 1 ? 'yes' : 'NO'}\n` +
    `skeleton of ${n('nodes')} entries on the wire (goal < 2 MB):\n` +
    `  as TreeNode[] JSON (protocol 1)   ${size(n('skeletonBytes'))}, gzipped ${size(n('skeletonGzipBytes'))}\n` +
    `  encoded (protocol 2, tree-wire)   ${size(n('wireBytes'))}, gzipped ${size(n('wireGzipBytes'))}\n`,
);
