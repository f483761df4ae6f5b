import type { ModelStreamEvent, ModelStreamOutcome, StreamFn } from '../model-stream.js';

/** Reads a model stream to its end: every event (each also given to `onEvent`) and the outcome. */
export async function drainStream(
  stream: ReturnType<StreamFn>,
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<{ events: ModelStreamEvent[]; outcome: ModelStreamOutcome }> {
  const events: ModelStreamEvent[] = [];
  for (;;) {
    const next = await stream.next();
    if (next.done) return { events, outcome: next.value };
    events.push(next.value);
    onEvent?.(next.value);
  }
}
