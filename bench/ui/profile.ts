/// <reference lib="dom" />
import fs from 'node:fs';
import { chromium } from '@playwright/test';
import { makeTempDirs, startArbor } from '../../e2e/support/arbor-server.js';
import { generateSession } from './generate-session.js';

/*
 * Where the first paint of a big session's graph spends its time: one page load under Chromium's
 * CPU profiler, printed as the functions with the most self time, plus when the snapshot frame
 * arrived over the WebSocket. For reading, not for figures (the profiler slows the page down).
 * Build the page unminified for readable names: `npx vite build --minify false --sourcemap`.
 */

const ENTRIES = Number(process.env.BENCH_UI_ENTRIES ?? 10_000);
const TOP = Number(process.env.PROFILE_TOP ?? 40);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function selfTimes(profile: Profile): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').pop() ?? '';
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const dirs = makeTempDirs();
  const session = generateSession(dirs.dataDir, fs.realpathSync(dirs.workspace), ENTRIES);
  const server = await startArbor(dirs);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const url = `${server.url}/?session=${session.sessionId}`;
    // One load to warm the server's caches, as the benchmark's repeated loads do.
    page.on('console', (m) => m.type() === 'error' && console.log(`page: ${m.text()}`));
    await page.goto(url);
    await page.waitForSelector('[aria-label="Session tree"] [aria-current="true"]', {
      timeout: 60_000,
    });
    await page.goto('about:blank');

    const cdp = await page.context().newCDPSession(page);
    const frames: { at: number; bytes: number }[] = [];
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketFrameReceived', (event) => {
      frames.push({ at: event.timestamp, bytes: event.response.payloadData.length });
    });
    let navigatedAt = 0;
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.type === 'Document') navigatedAt = event.timestamp;
    });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url);
    await page.waitForSelector('[aria-label="Session tree"] [aria-current="true"]', {
      timeout: 60_000,
    });
    const painted = (await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))))',
    )) as number;
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    console.log(`painted at ${painted.toFixed(0)} ms after navigation start (profiled)`);
    for (const frame of frames.filter((f) => f.bytes > 100_000))
      console.log(
        `big frame (${(frame.bytes / 1e6).toFixed(1)} MB) received at ${((frame.at - navigatedAt) * 1000).toFixed(0)} ms`,
      );
    const rows = selfTimes(profile);
    const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`sampled ${total.toFixed(0)} ms; top self time:`);
    for (const [name, ms] of rows.slice(0, TOP))
      console.log(`${ms.toFixed(1).padStart(8)} ms  ${name}`);
    if (process.env.PROFILE_OUT) fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
