/* Expressions the benchmarks evaluate inside the page. */

/**
 * In-page: resolves with `performance.now()` two animation frames after `selector` is in the
 * document (the frame that shows it has been painted).
 */
export function paintedWith(selector: string): string {
  return `new Promise((resolve, reject) => {
    const selector = ${JSON.stringify(selector)};
    const painted = () =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
    if (document.querySelector(selector)) return painted();
    const observer = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      observer.disconnect();
      painted();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
    setTimeout(() => {
      observer.disconnect();
      reject(new Error(selector + ' did not appear within 60 s'));
    }, 60000);
  })`;
}

/** In-page: resolves once the main thread has had an idle moment (at most 2 s from now). */
export function settled(): string {
  return `new Promise((resolve) => requestIdleCallback(() => resolve(true), { timeout: 2000 }))`;
}
