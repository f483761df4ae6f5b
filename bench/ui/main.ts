/// <reference lib="dom" />
import fs from 'node:fs';
import { chromium } from '@playwright/test';
import { makeTempDirs, startArbor } from '../../e2e/support/arbor-server.js';
import { generateSession } from './generate-session.js';

/*
 * The graph of a 10,000-entry session in Chromium: time to the first painted graph, and from a
 * click on a prompt node to the leaf moved and the editor filled. Needs `npm run build` first.
 * Goals (product spec §7): first paint under 1.5 s; click to leaf and editor under 100 ms.
 */

const ENTRIES = Number(process.env.BENCH_UI_ENTRIES ?? 10_000);
const LOADS = 5;
const CLICKS = 20;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function fmt(values: number[]): string {
  return `median ${quantile(values, 0.5).toFixed(0)} ms, p90 ${quantile(values, 0.9).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;
}

async function main(): Promise<void> {
  for (const file of ['dist/server/cli/main.js', 'dist/web/index.html'])
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  const dirs = makeTempDirs();
  const session = generateSession(dirs.dataDir, fs.realpathSync(dirs.workspace), ENTRIES);
  const size = fs.statSync(session.file).size;
  console.log(`session: ${session.entries} entries, ${(size / 1e6).toFixed(1)} MB`);
  const server = await startArbor(dirs);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const url = `${server.url}/?session=${session.sessionId}`;

    const paints: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      await page.goto(url);
      await page.waitForSelector('[aria-label="Session tree"] [aria-current="true"]', {
        timeout: 30_000,
      });
      paints.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) =>
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))),
            ),
        ),
      );
    }
    console.log(`first painted graph (navigation start → leaf node painted): ${fmt(paints)}`);

    const clicks: number[] = [];
    const [a, b] = session.recentPrompts.slice(-2);
    if (!a || !b) throw new Error('not enough prompts');
    for (let i = 0; i < CLICKS; i++) {
      const target = i % 2 === 0 ? b : a;
      const selector = `[aria-label="Session tree"] [data-entry-id="${target.id}"]`;
      await page.waitForSelector(selector);
      await page.locator(selector).scrollIntoViewIfNeeded();
      const ms = await page.evaluate(
        ({ selector, parentId, text }) =>
          new Promise<number>((resolve, reject) => {
            const editor = document.querySelector<HTMLTextAreaElement>(
              'textarea[aria-label="Message"]',
            )!;
            const node = document.querySelector<HTMLElement>(selector)!;
            const started = performance.now();
            const check = (): boolean => {
              const leaf = document.querySelector(
                '[aria-label="Session tree"] [aria-current="true"]',
              );
              return leaf?.getAttribute('data-entry-id') === parentId && editor.value === text;
            };
            const observer = new MutationObserver(() => {
              if (check()) {
                observer.disconnect();
                resolve(performance.now() - started);
              }
            });
            observer.observe(document.body, {
              subtree: true,
              attributes: true,
              childList: true,
              characterData: true,
            });
            setTimeout(() => {
              observer.disconnect();
              reject(new Error('the leaf did not move within 10 s'));
            }, 10_000);
            node.click();
          }),
        { selector, parentId: target.parentId, text: target.text },
      );
      clicks.push(ms);
    }
    console.log(`click on a prompt → leaf moved and editor filled: ${fmt(clicks)}`);
    if (errors.length) console.log(`page errors: ${errors.join('\n')}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
