import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logFormatFor } from '../app/server-log.js';
import { spawnArbor, type ArborProcess } from './test-support/arbor-cli.js';

/*
 * What the real `arbor serve` prints (decision 071): a start-up line and warnings at info, one
 * line per request only at debug; JSON lines when stdout is not a terminal, pino-pretty's lines
 * when asked for (and on a terminal).
 */

let root: string;
let data: string;
let workspace: string;
const running = new Set<ArborProcess>();
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-console-')));
  data = path.join(root, 'data');
  workspace = path.join(root, 'ws');
  fs.mkdirSync(workspace);
});
afterEach(async () => {
  for (const arbor of running) {
    arbor.child.kill('SIGKILL');
    await arbor.exited;
  }
  running.clear();
  fs.rmSync(root, { recursive: true, force: true });
});

async function serve(
  env: Record<string, string> = {},
): Promise<{ arbor: ArborProcess; url: string }> {
  const arbor = spawnArbor(['serve', '--port', '0', '--data', data, '--workspace', workspace], env);
  running.add(arbor);
  const [, port] = await arbor.waitFor(/Arbor is running at http:\/\/127\.0\.0\.1:(\d+)\//);
  const url = `http://127.0.0.1:${port}`;
  for (const where of ['/api/health', '/api/workspaces', '/api/no-such-route']) {
    expect((await fetch(`${url}${where}`)).status).toBeLessThan(500);
  }
  return { arbor, url };
}

/** Stops the server and answers what it printed, each line parsed as JSON. */
async function stopAndRead(arbor: ArborProcess): Promise<{ level: number; msg: string }[]> {
  arbor.child.kill('SIGTERM');
  expect(await arbor.exited).toBe(0);
  running.delete(arbor);
  return arbor
    .output()
    .stdout.trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

describe('the console of arbor serve', () => {
  it('prints at info a start-up line and no line for the requests', async () => {
    const { arbor } = await serve();
    const lines = await stopAndRead(arbor);
    expect(lines[0]!.level).toBe(30);
    expect(lines[0]!.msg).toMatch(
      new RegExp(
        `^Arbor is running at http://127\\.0\\.0\\.1:\\d+/\\n  workspaces: ${workspace}\\n  data: ${data}$`,
      ),
    );
    // The shutdown comes after the requests: anything they logged would stand before it.
    expect(lines.map((line) => line.msg)).toEqual([lines[0]!.msg, 'shutting down']);
  }, 30_000);

  it('prints a line for each request at debug', async () => {
    const { arbor } = await serve({ ARBOR_LOG_LEVEL: 'debug' });
    await arbor.waitFor(/GET \/api\/no-such-route 404/);
    const lines = await stopAndRead(arbor);
    const requests = lines.filter((line) => line.level === 20).map((line) => line.msg);
    expect(requests).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        expect.stringMatching(/^GET \/api\/health 200 in \d+ ms$/),
        expect.stringMatching(/^GET \/api\/workspaces 200 in \d+ ms$/),
        expect.stringMatching(/^GET \/api\/no-such-route 404 in \d+ ms$/),
      ]),
    );
  }, 30_000);

  it("prints pino-pretty's readable lines when asked, warnings included", async () => {
    // A warning at start-up: a workspace's own settings name a session folder.
    fs.mkdirSync(path.join(workspace, '.pi'));
    fs.writeFileSync(
      path.join(workspace, '.pi', 'settings.json'),
      JSON.stringify({ sessionDir: data }),
    );
    const { arbor } = await serve({ ARBOR_LOG_FORMAT: 'pretty' });
    arbor.child.kill('SIGTERM');
    await arbor.exited;
    running.delete(arbor);
    const out = arbor.output().stdout;
    expect(out).toMatch(
      /^\[\d\d:\d\d:\d\d\] WARN: .*\.pi\/settings\.json sets sessionDir .*Arbor does not follow/m,
    );
    expect(out).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: Arbor is running at http:\/\/127\.0\.0\.1:\d+\/$/m,
    );
    expect(out).toContain(`\n  workspaces: ${workspace}\n  data: ${data}\n`);
    expect(out).not.toMatch(/^\{/m);
    expect(out).not.toMatch(/GET \//);
  }, 30_000);

  it('is pretty on a terminal and JSON lines otherwise, unless a setting says which', () => {
    expect(logFormatFor('auto', true)).toBe('pretty');
    expect(logFormatFor('auto', false)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
  });
});
