/// <reference lib="dom" />
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { makeTempDirs, startArbor, type ArborServer } from '../../e2e/support/arbor-server.js';
import { openCdpPage, type CdpPage } from './cdp-page.js';
import { panGraph, type PanFigure } from './pan.js';
import { paintedWith, settled } from './page-scripts.js';
import { generateSession, type GeneratedSession } from './generate-session.js';

/*
 * The graph of a 10,000-entry session in Chromium: time to the first painted graph, and from a
 * click on a prompt node to the leaf moved and the editor filled, timed inside the page. Needs
 * `npm run build` first. Chromium runs without DevTools' network instrumentation (see cdp-page.ts).
 * Goals (product spec §7): first paint under 1.5 s; click to leaf and editor under 100 ms.
 *
 * `BENCH_UI_VARIANTS` compares builds or page switches in one run, each measurement alternating
 * between them: `name=ROOT[?QUERY]` separated by `;`, ROOT a built checkout (another worktree's,
 * `.` for this one) and QUERY added to the page's URL, e.g.
 * `after=.;before=/work/old` (a page switch would be `name=.?switch=value`).
 */

const ENTRIES = Number(process.env.BENCH_UI_ENTRIES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_UI_ROUNDS ?? 1);
const LOADS = 5;
const CLICKS = 8;
const PANS = 5;

interface Variant {
  name: string;
  root: string;
  query: string;
}

function variantsFromEnv(spec = process.env.BENCH_UI_VARIANTS ?? 'arbor=.'): Variant[] {
  return spec.split(';').map((part) => {
    const match = /^([^=]+)=([^?]+)(?:\?(.*))?$/.exec(part.trim());
    if (!match) throw new Error(`BENCH_UI_VARIANTS: "${part}" is not name=ROOT[?QUERY]`);
    const root = path.resolve(match[2]!);
    for (const file of ['dist/server/cli/main.js', 'dist/web/index.html'])
      if (!fs.existsSync(path.join(root, file)))
        throw new Error(`${path.join(root, file)} is missing: run \`npm run build\` there first`);
    return { name: match[1]!, root, query: match[3] ? `&${match[3]}` : '' };
  });
}

/** The protocol version a built checkout speaks (an older one may speak an older protocol). */
async function protocolVersionOf(root: string): Promise<number> {
  const built: { PROTOCOL_VERSION?: unknown } = await import(
    pathToFileURL(path.join(root, 'dist', 'shared', 'protocol.js')).href
  );
  if (typeof built.PROTOCOL_VERSION !== 'number')
    throw new Error(`${root}: its built shared/protocol.js names no PROTOCOL_VERSION`);
  return built.PROTOCOL_VERSION;
}

/** Moves the session's leaf back over the protocol, as another client would. */
async function moveLeaf(run: Run, targetId: string): Promise<void> {
  const { server, session, protocolVersion } = run;
  const { sessionId } = session;
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, {
    origin: server.url,
  });
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', (code) => reject(new Error(`the server closed the socket (${code})`)));
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'hello', protocolVersion }));
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

const LEAF = '[aria-label="Session tree"] [aria-current="true"]';

/** One variant's server, session and figures. */
interface Run {
  variant: Variant;
  base: string;
  server: ArborServer;
  protocolVersion: number;
  session: GeneratedSession;
  url: string;
  paints: number[];
  clicks: number[];
  pans: PanFigure[];
}

async function startRun(variant: Variant): Promise<Run> {
  const protocolVersion = await protocolVersionOf(variant.root);
  const dirs = makeTempDirs();
  const base = path.dirname(dirs.dataDir);
  const session = generateSession(dirs.dataDir, fs.realpathSync(dirs.workspace), ENTRIES);
  const server = await startArbor(dirs, {}, undefined, variant.root).catch((error: unknown) => {
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  });
  const url = `${server.url}/?session=${session.sessionId}${variant.query}`;
  return { variant, base, server, protocolVersion, session, url, paints: [], clicks: [], pans: [] };
}

/**
 * Waits until the page has settled: the chat drawn (it renders after the graph) and the main
 * thread idle, so that what is timed next is the click's or the pan's and not the page's start.
 */
async function settle(page: CdpPage): Promise<void> {
  await page.evaluate(paintedWith('[aria-label="Conversation"] [data-entry-id]'));
  await page.evaluate(settled());
}

/** Pans the graph on a fresh, settled page. */
async function pan(page: CdpPage, run: Run): Promise<PanFigure> {
  await page.navigate(run.url);
  await page.evaluate(paintedWith(LEAF));
  await settle(page);
  return panGraph(page);
}

/**
 * Clicks the newest prompt (the leaf moves to its parent, its text fills the editor) on a fresh
 * page with the session's leaf put back first, and gives the time the page took.
 */
async function clickPrompt(page: CdpPage, run: Run): Promise<number> {
  const { session } = run;
  const target = session.recentPrompts.at(-1);
  if (!target) throw new Error('no prompt in the generated session');
  const selector = `[aria-label="Session tree"] [data-entry-id="${target.id}"]`;
  if (run.clicks.length > 0) await moveLeaf(run, session.leafId);
  await page.navigate(run.url);
  await page.evaluate(
    paintedWith(`[aria-label="Session tree"] [data-entry-id="${session.leafId}"]`),
  );
  await page.evaluate(paintedWith(selector));
  await settle(page);
  return page.evaluate<number>(
    `new Promise((resolve, reject) => {
      const editor = document.querySelector('textarea[aria-label="Message"]');
      const node = document.querySelector(${JSON.stringify(selector)});
      const parentId = ${JSON.stringify(target.parentId)};
      const text = ${JSON.stringify(target.text)};
      if (editor.value !== '') reject(new Error('the editor is not empty before the click'));
      const started = performance.now();
      const done = () => {
        const leaf = document.querySelector(${JSON.stringify(LEAF)});
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
  );
}

/** One line per measurement on stderr, so a long run shows where it is. */
function progress(run: Run, what: string, ms: number): void {
  process.stderr.write(`${run.variant.name} ${what} ${ms.toFixed(0)} ms (load ${loadAverage()})\n`);
}

const loadAverage = (): string => os.loadavg()[0]!.toFixed(1);

async function main(): Promise<void> {
  const variants = variantsFromEnv();
  const runs: Run[] = [];
  let page: CdpPage | undefined;
  try {
    for (const variant of variants) runs.push(await startRun(variant));
    const { session } = runs[0]!;
    const size = fs.statSync(session.file).size;
    console.log(`session: ${session.entries} entries, ${(size / 1e6).toFixed(1)} MB`);
    console.log(`load average (1 min) at the start: ${loadAverage()}`);
    page = await openCdpPage({ width: 1440, height: 900 });
    // Each measurement goes to every variant in turn, so that the machine's load falls on all,
    // and every other turn in the reverse order, so that no variant always follows the same one.
    let turn = 0;
    const inTurn = (): Run[] => (turn++ % 2 === 0 ? runs : [...runs].reverse());
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < LOADS; i++)
        for (const run of inTurn()) {
          await page.navigate(run.url);
          run.paints.push(await page.evaluate<number>(paintedWith(LEAF)));
          progress(run, 'load', run.paints.at(-1)!);
        }
      for (let i = 0; i < CLICKS; i++)
        for (const run of inTurn()) {
          run.clicks.push(await clickPrompt(page, run));
          progress(run, 'click', run.clicks.at(-1)!);
        }
      for (let i = 0; i < PANS; i++)
        for (const run of inTurn()) {
          run.pans.push(await pan(page, run));
          progress(run, 'pan', run.pans.at(-1)!.total);
        }
    }
    console.log(`load average (1 min) at the end: ${loadAverage()}`);
    for (const run of runs) {
      const label = runs.length > 1 ? `[${run.variant.name}] ` : '';
      console.log(
        `${label}first painted graph (navigation start → leaf node painted): ${fmt(run.paints)}`,
      );
      console.log(`${label}click on a prompt → leaf moved and editor filled: ${fmt(run.clicks)}`);
      console.log(`${label}pan, drag to painted: ${fmt(run.pans.map((pan) => pan.total))}`);
      console.log(`${label}pan, longest frame: ${fmt(run.pans.map((pan) => pan.longestFrame))}`);
    }
    if (page.errors.length) console.log(`page errors: ${page.errors.join('\n')}`);
  } finally {
    await page?.close();
    for (const run of runs) {
      await run.server.stop();
      fs.rmSync(run.base, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
