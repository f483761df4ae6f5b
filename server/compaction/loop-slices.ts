/*
 * Long loops on the thread that serves every session, cut into slices: the loop calls `pause()`
 * after each step, which now and then (every few milliseconds of work) waits for the event loop
 * to run whatever else is due (I/O, timers, other sessions' frames) before going on.
 */

/** How much work runs between two pauses. */
export const SLICE_MS = 4;

export class LoopSlices {
  private sliceStart = performance.now();
  private steps = 0;

  /**
   * Resolves at once, or after the event loop has had a turn when the current slice is used up.
   * Checks the clock only every `every` steps (steps are cheap; the clock is not free).
   */
  pause(every = 1): Promise<void> | undefined {
    if (++this.steps % every !== 0) return undefined;
    if (performance.now() - this.sliceStart < SLICE_MS) return undefined;
    return new Promise((resolve) =>
      setImmediate(() => {
        this.sliceStart = performance.now();
        resolve();
      }),
    );
  }
}
