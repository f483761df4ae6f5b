import fs from 'node:fs';
import path from 'node:path';
import { makeTempDirs, startArbor } from '../../e2e/support/arbor-server.js';
import { openCdpPage } from './cdp-page.js';
import { generateSession } from './generate-session.js';
import { paintedWith } from './page-scripts.js';

/*
 * Where the first paint of a big session's graph spends its time: one page load under Chromium's
 * CPU profiler, printed as the functions with the most self time and the most time under them.
 * For reading, not for figures (the profiler slows the page down). Build the page unminified for
 * readable names: `npx vite build --minify false --sourcemap`. PROFILE_OUT=file saves the profile
 * (with `paintedAt`, the paint's time since navigation start on the profile's clock, in µs).
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
  startTime: number;
  endTime: number;
}

function nameOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
}

function selfTimes(profile: Profile): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const key = nameOf(node);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Time under each function (itself and what it calls), each sample counted once per function. */
function totalTimes(profile: Profile): [string, number][] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      if (!node.callFrame.url) continue;
      const key = nameOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const dirs = makeTempDirs();
  const session = generateSession(dirs.dataDir, fs.realpathSync(dirs.workspace), ENTRIES);
  const server = await startArbor(dirs);
  const page = await openCdpPage({ width: 1440, height: 900 });
  try {
    const url = `${server.url}/?session=${session.sessionId}`;
    const leaf = '[aria-label="Session tree"] [aria-current="true"]';
    // One load to warm the server's caches, as the benchmark's repeated loads do.
    await page.navigate(url);
    await page.evaluate(paintedWith(leaf));

    await page.send('Profiler.enable');
    await page.send('Profiler.setSamplingInterval', { interval: 200 });
    await page.send('Profiler.start');
    await page.navigate(url);
    const painted = await page.evaluate<number>(paintedWith(leaf));
    const { profile } = await page.send<{ profile: Profile }>('Profiler.stop');
    console.log(`painted at ${painted.toFixed(0)} ms after navigation start (profiled)`);
    const rows = selfTimes(profile);
    const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`sampled ${total.toFixed(0)} ms; top self time:`);
    for (const [name, ms] of rows.slice(0, TOP))
      console.log(`${ms.toFixed(1).padStart(8)} ms  ${name}`);
    console.log('top total time:');
    for (const [name, ms] of totalTimes(profile).slice(0, TOP))
      console.log(`${ms.toFixed(1).padStart(8)} ms  ${name}`);
    if (process.env.PROFILE_OUT)
      fs.writeFileSync(
        process.env.PROFILE_OUT,
        JSON.stringify({ ...profile, paintedAt: painted * 1000 }),
      );
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
