import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionDirFor } from '../store/session-paths.js';
import { jsonLine, userLine } from './test-support/session-lines.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * A FIFO where a session file is looked for: a member's bash can `mkfifo pipe` in the workspace and
 * import a session whose header names it as its parent, or a FIFO can sit in a session folder as
 * `x.jsonl`. Opening one for reading waits for a writer; before, the listing did so on the event
 * loop and the server hung, deaf even to SIGTERM. Each FIFO here has a writer that comes after 8 s
 * (so an unfixed server hangs for a bounded time, not for ever) and leaves a mark when it came:
 * every answer must arrive before any mark.
 */

const tests = serverPerTest();
const SESSION_ID = '33333333-4444-4555-8666-777777777777';
const writers: ChildProcess[] = [];

afterEach(() => {
  for (const writer of writers.splice(0)) writer.kill('SIGKILL');
});

/** A FIFO at `file` whose writer opens it after 8 s and then leaves `file.came`. */
function fifo(file: string): void {
  execFileSync('mkfifo', [file]);
  const writer = spawn('sh', ['-c', 'sleep 8; : > "$1"; : > "$1.came"', 'sh', file], {
    stdio: 'ignore',
  });
  writers.push(writer);
}

describe('a FIFO named as a session file', () => {
  it('is skipped by the listing, the search and the lookup, without waiting for a writer', async () => {
    const { server, cookies } = await tests.startTeam({ ann: 'viewer' });
    const pipe = path.join(server.workspacePath, 'pipe');
    fifo(pipe);
    const dir = sessionDirFor(server.dataDir, server.workspacePath);
    fs.mkdirSync(dir, { recursive: true });
    const stray = path.join(dir, `2026-12-01T12-00-00-000Z_${'9'.repeat(8)}.jsonl`);
    fifo(stray);
    const header = {
      type: 'session',
      version: 3,
      id: SESSION_ID,
      timestamp: '2026-12-01T12:00:00.000Z',
      cwd: server.workspacePath,
      parentSession: pipe,
    };
    fs.writeFileSync(
      path.join(dir, `2026-12-01T12-00-01-000Z_${SESSION_ID}.jsonl`),
      jsonLine(header) + userLine('u1', null, 'find the needle'),
    );
    const get = (url: string) => fetch(`${server.url}${url}`, { headers: { cookie: cookies.ann } });

    const listing = await get(`/api/workspaces/${server.workspaceId}/sessions`);
    expect(listing.status).toBe(200);
    const { sessions } = (await listing.json()) as { sessions: { id: string }[] };
    expect(sessions.map((s) => s.id)).toEqual([SESSION_ID]);
    const search = await get(`/api/workspaces/${server.workspaceId}/search?q=needle`);
    expect(search.status).toBe(200);
    expect(JSON.stringify(await search.json())).toContain(SESSION_ID);
    expect((await get('/api/sessions/99999999/download')).status).toBe(404);
    const download = await get(`/api/sessions/${SESSION_ID}/download`);
    expect(await download.text()).toContain('find the needle');

    // Nothing above waited for a writer.
    expect(fs.existsSync(`${pipe}.came`)).toBe(false);
    expect(fs.existsSync(`${stray}.came`)).toBe(false);
  });
});
