import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { runSearchInWorker as RunSearch } from '../../server/search/search-runner.js';
import type { DEFAULT_SEARCH_LIMITS as Limits } from '../../server/search/session-search.js';
import { writePiSessionFile } from '../../server/store/test-support/pi-session-file.js';

/*
 * Session search over a big workspace: 100 sessions of 100 prompts, each answered by a 20 KB tool
 * output (about 205 MB), searched for one word (the raw-line pre-test applies) and for two words
 * (every message line is parsed). Reports wall time and the server loop's delay while the worker
 * reads. Uses the build (`npm run build`), as the server runs it.
 */

const runner = path.resolve(import.meta.dirname, '../../dist/server/search/search-runner.js');
const search = path.resolve(import.meta.dirname, '../../dist/server/search/session-search.js');
if (!fs.existsSync(runner)) throw new Error('Run `npm run build` first.');
const { runSearchInWorker } = (await import(runner)) as { runSearchInWorker: typeof RunSearch };
const { DEFAULT_SEARCH_LIMITS } = (await import(search)) as {
  DEFAULT_SEARCH_LIMITS: typeof Limits;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-search-bench-'));
try {
  const output = `${'x'.repeat(20_000)}\n`;
  const files = Array.from({ length: 100 }, (_, s) => {
    const turns = Array.from({ length: 100 }, (_, i) => [
      { role: 'user' as const, text: `prompt ${i} of session ${s}` },
      { role: 'toolResult' as const, text: output + (s === 37 && i === 90 ? 'needle in it' : '') },
    ]).flat();
    const { sessionId, file } = writePiSessionFile(dir, '/ws', turns);
    return { sessionId, file };
  });
  const megabytes = files.reduce((n, f) => n + fs.statSync(f.file).size, 0) / 1e6;
  console.log(`${files.length} sessions, ${megabytes.toFixed(0)} MB`);
  for (const query of ['needle', 'needle in', 'needle', 'needle in']) {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const start = performance.now();
    const run = await runSearchInWorker(
      { query, files, limits: DEFAULT_SEARCH_LIMITS },
      { signal: new AbortController().signal, budgetMs: 60_000 },
    );
    const ms = performance.now() - start;
    delay.disable();
    console.log(
      `${JSON.stringify(query).padEnd(12)} ${ms.toFixed(0).padStart(5)} ms, ${run.results.length} hit, ` +
        `loop delay max ${(delay.max / 1e6).toFixed(0)} ms (${run.outcome})`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
