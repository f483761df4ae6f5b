/// <reference lib="dom" />
import fs from 'node:fs';
import { chromium } from '@playwright/test';
import WebSocket from 'ws';
import { makeTempDirs, startArbor } from '../../e2e/support/arbor-server.js';
import { generateSession } from './generate-session.js';

/*
 * The graph of a 10,000-entry session in Chromium: time to the first painted graph, and from a
 * click on a prompt node to the leaf moved and the editor filled. Needs `npm run build` first.
 * Goals (product spec §7): first paint under 1.5 s; click to leaf and editor under 100 ms.
 */

const ENTRIES = Number(process.env.BENCH_UI_ENTRIES ?? 10_000);
const LOADS = 5;
const CLICKS = 8;

/** Moves the session's leaf back over the protocol, as another client would. */
async function moveLeaf(baseUrl: string, sessionId: string, targetId: string): Promise<void> {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/ws`, { origin: baseUrl });
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'hello', protocolVersion: 1 }));
      socket.send(JSON.stringify({ type: 'subscribe', id: 's', sessionId }));
      socket.send(JSON.stringify({ type: 'navigate_tree', id: 'n', sessionId, targetId }));
    });
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; id?: string; ok?: boolean };
      if (frame.type === 'response' && frame.id === 'n') {
        socket.close();
        if (frame.ok) resolve();
        else reject(new Error(`navigate_tree failed: ${String(data)}`));
      }
    });
  });
}

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
        (await page.evaluate(
          'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))))',
        )) as number,
      );
    }
    console.log(`first painted graph (navigation start → leaf node painted): ${fmt(paints)}`);

    const clicks: number[] = [];
    // Click the newest prompt (the leaf moves to its parent, its text fills the editor). Each
    // click starts from a fresh page on the original leaf: the previous click is undone first.
    const target = session.recentPrompts.at(-1);
    if (!target) throw new Error('no prompt in the generated session');
    const leafSelector = `[aria-label="Session tree"] [data-entry-id="${session.leafId}"]`;
    for (let i = 0; i < CLICKS; i++) {
      const selector = `[aria-label="Session tree"] [data-entry-id="${target.id}"]`;
      if (i > 0) {
        await moveLeaf(server.url, session.sessionId, session.leafId);
        await page.goto(url);
        await page.waitForSelector(leafSelector);
      }
      await page.waitForSelector(selector);
      await page.getByRole('textbox', { name: 'Message' }).fill('');
      // A string, not a function: the TypeScript runner would wrap a function in helpers the
      // page does not have.
      const ms = (await page.evaluate(
        `new Promise((resolve, reject) => {
          const editor = document.querySelector('textarea[aria-label="Message"]');
          const node = document.querySelector(${JSON.stringify(selector)});
          const parentId = ${JSON.stringify(target.parentId)};
          const text = ${JSON.stringify(target.text)};
          const started = performance.now();
          const done = () => {
            const leaf = document.querySelector('[aria-label="Session tree"] [aria-current="true"]');
            return leaf && leaf.getAttribute('data-entry-id') === parentId && editor.value === text;
          };
          const observer = new MutationObserver(() => {
            if (done()) {
              observer.disconnect();
              resolve(performance.now() - started);
            }
          });
          observer.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
          setTimeout(() => {
            observer.disconnect();
            reject(new Error('the leaf did not move within 10 s'));
          }, 10000);
          node.click();
        })`,
      )) as number;
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
