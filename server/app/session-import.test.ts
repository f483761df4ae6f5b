import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionDirFor } from '../store/session-paths.js';
import { serverPerTest, type TestServer } from './test-support/test-server.js';

/*
 * Imports and the trash attacked over real HTTP (a listening server, fetch, real logins): a
 * trashed session taken over by a second import of its id, byte-for-byte storage, invalid UTF-8,
 * parent cycles. Memory under concurrent big imports is in session-import-memory.test.ts.
 */

const FIXTURE = '/work/shared/fixtures/pi/v3-rpc-session.jsonl';
const FIXTURE_ID = 'a8620d24-4fae-4f42-a111-4127c7e5f474';

const tests = serverPerTest();

/** Alice and Bob, members, each logged in over HTTP. */
function aliceAndBob() {
  return tests.startTeam({ alice: 'member', bob: 'member' });
}

function upload(s: TestServer, body: string | Buffer, cookie?: string) {
  return fetch(`${s.url}/api/workspaces/${s.workspaceId}/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', ...(cookie ? { cookie } : {}) },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}

/** Every file under the data folder's session folders, temp files included. */
function sessionFiles(s: TestServer): string[] {
  const dir = path.join(s.dataDir, 'sessions');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/** Waits (polling the file, at most 10 s) until `file` exists and contains `text`. */
async function untilFileHas(file: string, text: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${file} never contained ${text}`);
}

describe('a trashed session cannot be taken over', () => {
  it("bob's import of alice's trashed id gets a new id, and only alice restores her session", async () => {
    const { server: s, cookies } = await aliceAndBob();
    const as = (who: keyof typeof cookies) => ({ cookie: cookies[who] });

    expect((await upload(s, fs.readFileSync(FIXTURE), cookies.alice)).status).toBe(201);
    const aliceDelete = await fetch(`${s.url}/api/sessions/${FIXTURE_ID}`, {
      method: 'DELETE',
      headers: as('alice'),
    });
    expect(aliceDelete.status).toBe(200);
    const aliceTrashed = ((await aliceDelete.json()) as { trashed: string }).trashed;

    // bob uploads a file claiming alice's id, deletes it, and restores alice's file.
    const bobImport = await upload(s, fs.readFileSync(FIXTURE), cookies.bob);
    expect(bobImport.status).toBe(201);
    const bobBody = (await bobImport.json()) as { session: { id: string }; replacedId?: string };
    expect(bobBody.replacedId).toBe(FIXTURE_ID);
    expect(bobBody.session.id).not.toBe(FIXTURE_ID);
    const bobDelete = await fetch(`${s.url}/api/sessions/${bobBody.session.id}`, {
      method: 'DELETE',
      headers: as('bob'),
    });
    expect(bobDelete.status).toBe(200);

    const restore = (who: keyof typeof cookies) =>
      fetch(
        `${s.url}/api/workspaces/${s.workspaceId}/trash/${encodeURIComponent(aliceTrashed)}/restore`,
        { method: 'POST', headers: as(who) },
      );
    const bobRestore = await restore('bob');
    expect(bobRestore.status).toBe(403);
    const aliceRestore = await restore('alice');
    expect(aliceRestore.status).toBe(200);
    const listed = await fetch(`${s.url}/api/workspaces/${s.workspaceId}/sessions`, {
      headers: as('alice'),
    });
    const sessions = ((await listed.json()) as { sessions: { id: string; owner: string }[] })
      .sessions;
    expect(sessions.find((item) => item.id === FIXTURE_ID)?.owner).toBe('alice');
  });

  it('the owner checked on restore is the one recorded for that file, whatever owns the id now', async () => {
    const { server: s, cookies } = await aliceAndBob();
    expect((await upload(s, fs.readFileSync(FIXTURE), cookies.alice)).status).toBe(201);
    const del = await fetch(`${s.url}/api/sessions/${FIXTURE_ID}`, {
      method: 'DELETE',
      headers: { cookie: cookies.alice as string },
    });
    const trashed = ((await del.json()) as { trashed: string }).trashed;
    // The id's ownership record is rewritten behind the server's back (an older hijack).
    const ownersFile = path.join(s.dataDir, 'owners.json');
    await untilFileHas(ownersFile, 'alice');
    const owners = JSON.parse(fs.readFileSync(ownersFile, 'utf8')) as {
      owners: Record<string, string>;
    };
    owners.owners[FIXTURE_ID] = 'bob';
    fs.writeFileSync(ownersFile, JSON.stringify(owners));
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(ownersFile, later, later);
    const res = await fetch(
      `${s.url}/api/workspaces/${s.workspaceId}/trash/${encodeURIComponent(trashed)}/restore`,
      { method: 'POST', headers: { cookie: cookies.bob as string } },
    );
    expect(res.status).toBe(403);
  });
});

describe('an import is stored as uploaded, or refused', () => {
  it('keeps non-canonical JSON byte for byte and lists its messages', async () => {
    const s = await tests.start();
    const id = '0190a000-0000-7000-8000-00000000abcd';
    const bytes = Buffer.from(
      [
        `{ "type": "session", "version": 3, "id": "${id}", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/tmp" }`,
        `{"id":"u1","type":"message","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"user","content":"caf\\u00e9 ol\u00e9 \u{1F333}","timestamp":1}}`,
        `{"type" : "message", "id":"a1", "parentId":"u1", "timestamp":"2026-01-02T03:04:07.000Z", "message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"openai-completions","provider":"demo","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}}`,
        '',
      ].join('\n'),
      'utf8',
    );
    const res = await upload(s, bytes);
    expect(res.status).toBe(201);
    const download = await fetch(`${s.url}/api/sessions/${id}/download`);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const list = await fetch(`${s.url}/api/workspaces/${s.workspaceId}/sessions`);
    const [item] = ((await list.json()) as { sessions: Record<string, unknown>[] }).sessions;
    expect(item).toMatchObject({ id, messageCount: 2, firstMessage: 'café olé 🌳' });
  });

  it('refuses invalid UTF-8, naming the line, and keeps nothing', async () => {
    const s = await tests.start();
    const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n');
    const bad = Buffer.concat([
      Buffer.from(`${lines.slice(0, 3).join('\n')}\n`),
      Buffer.from(lines[3]!.replace('"content"', '"cont\u0000ent"')).subarray(0, 40),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from(`"}\n${lines.slice(4).join('\n')}`),
    ]);
    const res = await upload(s, bad);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_argument');
    expect(body.error.message).toMatch(/line 4 is not valid UTF-8/);
    expect(sessionFiles(s)).toEqual([]);
  });

  it('refuses an entry nested 20,000 deep, naming the line, and keeps nothing', async () => {
    // Before, it was stored and the session could never be sent to a page (a stack overflow).
    const s = await tests.start();
    const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n');
    // Written out by hand: JSON.stringify itself cannot write it.
    const deep = `{"type":"custom","customType":"x","id":"deep0001","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","data":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const res = await upload(s, `${lines.slice(0, 3).join('\n')}\n${deep}\n`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toBe(
      "The session file's line 4 is not a valid entry: arrays or objects nested deeper than 512 levels.",
    );
    expect(sessionFiles(s)).toEqual([]);
    // A string full of brackets is no nesting at all.
    const brackets = JSON.stringify({
      type: 'custom',
      customType: 'x',
      id: 'flat0001',
      parentId: null,
      timestamp: '2026-01-02T03:04:06.000Z',
      data: { text: '['.repeat(20_000), quoted: '\\"['.repeat(2_000) },
    });
    const flat = await upload(s, `${lines.slice(0, 3).join('\n')}\n${brackets}\n`);
    expect(flat.status).toBe(201);
  });

  it('refuses a parent cycle, naming its ids, and keeps nothing', async () => {
    const s = await tests.start();
    const id = '0190a000-0000-7000-8000-00000000cccc';
    const entry = (entryId: string, parentId: string | null, text: string) =>
      JSON.stringify({
        type: 'message',
        id: entryId,
        parentId,
        timestamp: '2026-01-02T03:04:06.000Z',
        message: { role: 'user', content: text, timestamp: 1 },
      });
    const body = [
      JSON.stringify({
        type: 'session',
        version: 3,
        id,
        timestamp: '2026-01-02T03:04:05.000Z',
        cwd: '/tmp',
      }),
      entry('root0001', null, 'fine'),
      entry('aaaa0001', 'bbbb0002', 'A'),
      entry('bbbb0002', 'aaaa0001', 'B'),
      '',
    ].join('\n');
    const res = await upload(s, body);
    expect(res.status).toBe(400);
    const message = ((await res.json()) as { error: { message: string } }).error.message;
    expect(message).toMatch(/cycle/);
    expect(message).toContain('aaaa0001');
    expect(message).toContain('bbbb0002');
    expect(sessionFiles(s)).toEqual([]);
    const opened = await fetch(`${s.url}/api/sessions/${id}/download`);
    expect(opened.status).toBe(404);
    expect(fs.existsSync(sessionDirFor(s.dataDir, s.workspacePath))).toBe(true);
  });
});

describe('imports of pi files', () => {
  it("imports pi's files of every version as they are", async () => {
    const s = await tests.start();
    for (const name of [
      'v1-large-session.jsonl',
      'v3-fork.jsonl',
      'v3-sessionmanager-edge-cases.jsonl',
    ]) {
      const bytes = fs.readFileSync(`/work/shared/fixtures/pi/${name}`);
      const res = await upload(s, bytes);
      expect(res.status, `${name}: ${await res.clone().text()}`).toBe(201);
      const { session } = (await res.json()) as { session: { id: string } };
      const download = await fetch(`${s.url}/api/sessions/${session.id}/download`);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes), name).toBe(true);
    }
  });
});
