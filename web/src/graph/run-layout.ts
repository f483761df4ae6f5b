import { layoutTree, WORKER_THRESHOLD, type LayoutInput, type LayoutResult } from './tree-layout';

/*
 * Chooses where a layout runs: inline for small trees (no message round trip), in one shared
 * worker for big ones. Only the newest request's answer resolves; older ones resolve to null.
 */

interface LayoutReply {
  seq: number;
  result: LayoutResult;
}

let worker: Worker | null = null;
let workerBroken = false;
let nextSeq = 1;
const pending = new Map<
  number,
  { input: LayoutInput; resolve: (result: LayoutResult | null) => void }
>();

function getWorker(): Worker | null {
  if (workerBroken || typeof Worker === 'undefined') return null;
  if (worker) return worker;
  try {
    worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<LayoutReply>) => {
      const { seq, result } = event.data;
      for (const [waiting, request] of pending) {
        if (waiting < seq) {
          request.resolve(null);
          pending.delete(waiting);
        }
      }
      pending.get(seq)?.resolve(result);
      pending.delete(seq);
    };
    // A worker that fails (blocked by a policy, say) hands its work back to the main thread.
    worker.onerror = (event) => {
      event.preventDefault();
      workerBroken = true;
      worker = null;
      for (const [seq, request] of pending) {
        request.resolve(layoutTree(request.input));
        pending.delete(seq);
      }
    };
    return worker;
  } catch {
    workerBroken = true;
    return null;
  }
}

/** Starts the worker ahead of need, so a big session's first layout does not wait for it. */
export function warmLayoutWorker(): void {
  getWorker();
}

export function runLayout(input: LayoutInput): Promise<LayoutResult | null> {
  const target = input.ids.length > WORKER_THRESHOLD ? getWorker() : null;
  if (!target) return Promise.resolve(layoutTree(input));
  const seq = nextSeq++;
  return new Promise((resolve) => {
    pending.set(seq, { input, resolve });
    target.postMessage({ seq, input });
  });
}
