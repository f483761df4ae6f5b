/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../shared/protocol.js';
import { makeTempDirs, startArbor } from '../../e2e/support/arbor-server.js';
import { openCdpPage } from './cdp-page.js';
import { paintedWith, settled } from './page-scripts.js';
import { generateSession } from './generate-session.js';

/*
 * The graph of a 10,000-entry session in Chromium: time to the first painted graph, and from a
 * click on a prompt node to the leaf moved and the editor filled, timed inside the page. Needs
 * `npm run build` first. Chromium runs without DevTools' network instrumentation (see cdp-page.ts).
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
      socket.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION }));
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
  const page = await openCdpPage({ width: 1440, height: 900 });
  try {
    const url = `${server.url}/?session=${session.sessionId}`;
    const leafSelector = '[aria-label="Session tree"] [aria-current="true"]';

    const paints: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      await page.navigate(url);
      paints.push(await page.evaluate<number>(paintedWith(leafSelector)));
    }
    console.log(`first painted graph (navigation start → leaf node painted): ${fmt(paints)}`);

    const clicks: number[] = [];
    // Click the newest prompt (the leaf moves to its parent, its text fills the editor). Each
    // click starts from a fresh page on the original leaf: the previous click is undone first.
    const target = session.recentPrompts.at(-1);
    if (!target) throw new Error('no prompt in the generated session');
    const selector = `[aria-label="Session tree"] [data-entry-id="${target.id}"]`;
    for (let i = 0; i < CLICKS; i++) {
      if (i > 0) {
        await moveLeaf(server.url, session.sessionId, session.leafId);
        await page.navigate(url);
      }
      await page.evaluate(
        paintedWith(`[aria-label="Session tree"] [data-entry-id="${session.leafId}"]`),
      );
      await page.evaluate(paintedWith(selector));
      // The click comes once the page has settled: the chat drawn (it renders after the graph)
      // and the main thread idle, so the figure is the click's and not the page's start.
      await page.evaluate(paintedWith('[aria-label="Conversation"] [data-entry-id]'));
      await page.evaluate(settled());
      clicks.push(
        await page.evaluate<number>(
          `new Promise((resolve, reject) => {
            const editor = document.querySelector('textarea[aria-label="Message"]');
            const node = document.querySelector(${JSON.stringify(selector)});
            const parentId = ${JSON.stringify(target.parentId)};
            const text = ${JSON.stringify(target.text)};
            if (editor.value !== '') reject(new Error('the editor is not empty before the click'));
            const started = performance.now();
            const done = () => {
              const leaf = document.querySelector(${JSON.stringify(leafSelector)});
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
        ),
      );
    }
    console.log(`click on a prompt → leaf moved and editor filled: ${fmt(clicks)}`);
    if (page.errors.length) console.log(`page errors: ${page.errors.join('\n')}`);
  } finally {
    await page.close();
    await server.stop();
    fs.rmSync(path.dirname(dirs.dataDir), { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
