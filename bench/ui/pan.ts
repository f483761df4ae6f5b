import type { CdpPage } from './cdp-page.js';

/*
 * A pan of the session graph as a person drags it: real mouse input through the DevTools
 * protocol, DRAGS drags of STEPS moves of STEP_PX each, downwards (towards older entries, above the
 * leaf). Timed in the page from the first move to two animation frames after the release, with
 * every frame's length on the way, so both the drag's throughput and its worst stutter show.
 */

const DRAGS = 4;
const STEPS = 20;
const STEP_PX = 30;

export interface PanFigure {
  /** From the first move to the frame painted after the release. */
  total: number;
  /** The longest frame during the drags. */
  longestFrame: number;
}

const viewportY = `(() => {
  const viewport = document.querySelector('[aria-label="Session tree"] .react-flow__viewport');
  return new DOMMatrix(getComputedStyle(viewport).transform).f;
})()`;

export async function panGraph(page: CdpPage): Promise<PanFigure> {
  // Near the pane's left edge, where the tree (drawn around the leaf's line) leaves it bare.
  const at = await page.evaluate<{ x: number; y: number }>(`(() => {
    const pane = document.querySelector('[aria-label="Session tree"] .react-flow__pane');
    const box = pane.getBoundingClientRect();
    return { x: box.x + 24, y: box.y + 40 };
  })()`);
  const before = await page.evaluate<number>(viewportY);
  const started = await page.evaluate<number>(`(() => {
    const frames = [];
    let last = performance.now();
    window.__benchFrames = frames;
    const tick = (time) => {
      frames.push(time - last);
      last = time;
      if (window.__benchFrames === frames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    return last;
  })()`);
  const mouse = (type: string, y: number, buttons: number): Promise<unknown> =>
    page.send('Input.dispatchMouseEvent', {
      type,
      x: at.x,
      y,
      button: 'left',
      buttons,
      clickCount: type === 'mouseMoved' ? 0 : 1,
    });
  for (let drag = 0; drag < DRAGS; drag++) {
    await mouse('mousePressed', at.y, 1);
    for (let step = 1; step <= STEPS; step++) await mouse('mouseMoved', at.y + step * STEP_PX, 1);
    await mouse('mouseReleased', at.y + STEPS * STEP_PX, 0);
  }
  const ended = await page.evaluate<number>(
    `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))))`,
  );
  const frames = await page.evaluate<number[]>(
    `(() => { const frames = window.__benchFrames; window.__benchFrames = null; return frames; })()`,
  );
  const moved = (await page.evaluate<number>(viewportY)) - before;
  const meant = DRAGS * STEPS * STEP_PX;
  if (Math.abs(moved - meant) > meant / 10)
    throw new Error(`the pan moved the graph ${moved.toFixed(0)} px, not ${meant} px`);
  return { total: ended - started, longestFrame: Math.max(...frames) };
}
