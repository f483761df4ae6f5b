import { describe, expect, it } from 'vitest';
import { SearchAnswerSchema, SessionListSchema } from '../../shared/rest-shapes.js';
import { abortedSearches, activeSearchWorkers } from '../search/search-runner.js';
import { sessionDirFor } from '../store/session-paths.js';
import { writePiSessionFile, type PiTurn } from '../store/test-support/pi-session-file.js';
import { serverPerTest, type TestServer } from './test-support/test-server.js';

/*
 * Full-text search over a workspace's sessions, and the session list's permissions, through the
 * real server with real session files written as pi writes them.
 */

const tests = serverPerTest();

async function team(): Promise<{ s: TestServer; cookies: Record<string, string> }> {
  const { server: s, cookies } = await tests.startTeam(
    { ann: 'admin', max: 'member', vic: 'viewer' },
    { listen: false },
  );
  return { s, cookies };
}

function writeSession(s: TestServer, turns: PiTurn[], start?: number) {
  return writePiSessionFile(
    sessionDirFor(s.dataDir, s.workspacePath),
    s.workspacePath,
    turns,
    start,
  );
}

async function search(s: TestServer, q: string, cookie?: string) {
  const res = await s.app.inject({
    url: `/api/workspaces/${s.workspaceId}/search?q=${encodeURIComponent(q)}`,
    headers: cookie ? { cookie } : {},
  });
  return res;
}

const chat = (prompts: string[]): PiTurn[] =>
  prompts.flatMap((text, i) => [
    { role: 'user' as const, text },
    { role: 'assistant' as const, text: `answer ${i}` },
  ]);

describe('session search', () => {
  it('finds a word in the fifth prompt of one session and in a tool result of another, with snippets', async () => {
    const { s, cookies } = await team();
    const prompts = writeSession(
      s,
      chat(['one', 'two', 'three', 'four', 'then the pelican landed', 'six']),
      Date.parse('2026-11-01T10:00:00Z'),
    );
    const tools = writeSession(
      s,
      [
        { role: 'user', text: 'list files' },
        { role: 'assistant', text: 'running ls' },
        { role: 'toolResult', text: 'README.md\nPELICAN.txt\nsrc/' },
      ],
      Date.parse('2026-11-02T10:00:00Z'),
    );
    writeSession(s, chat(['nothing to see']), Date.parse('2026-11-03T10:00:00Z'));

    // A viewer reads every session of the workspace, so a viewer searches them all too.
    const res = await search(s, 'pelican', cookies.vic);
    expect(res.statusCode).toBe(200);
    const answer = SearchAnswerSchema.parse(res.json());
    expect(answer.complete).toBe(true);
    // Newest first, as the list.
    expect(answer.results.map((r) => r.sessionId)).toEqual([tools.sessionId, prompts.sessionId]);
    const [inTool, inPrompt] = answer.results;
    expect(inTool!.hits).toEqual([
      {
        entryId: tools.entryIds[2],
        where: 'toolResult',
        snippet: 'README.md PELICAN.txt src/',
        match: [10, 17],
      },
    ]);
    expect(inPrompt!.hits).toHaveLength(1);
    const hit = inPrompt!.hits[0]!;
    expect(hit).toMatchObject({ entryId: prompts.entryIds[8], where: 'user' });
    expect(hit.snippet.slice(hit.match[0], hit.match[1])).toBe('pelican');
    expect(hit.snippet).toBe('then the pelican landed');
  });

  it('takes hostile queries as plain text: regex characters, a huge query, an empty one', async () => {
    const { s, cookies } = await team();
    const session = writeSession(s, chat(['the cost is (a+)+$ [really] .* \\d yes']));
    writeSession(s, chat(['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!']));

    const literal = SearchAnswerSchema.parse(
      (await search(s, '(a+)+$ [really] .*', cookies.max)).json(),
    );
    expect(literal.results.map((r) => r.sessionId)).toEqual([session.sessionId]);
    expect(literal.results[0]!.hits[0]!.snippet).toContain('(a+)+$ [really] .*');
    // As a pattern it would match everything; as text it matches nothing here.
    const dotStar = SearchAnswerSchema.parse((await search(s, '.*', cookies.max)).json());
    expect(dotStar.results.map((r) => r.sessionId)).toEqual([session.sessionId]);

    const huge = await search(s, 'x'.repeat(5000), cookies.max);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.message).toMatch(/at most 200 characters/);
    const empty = await search(s, '   ', cookies.max);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toMatch(/what to search for/);
  });

  it('finds session names and refuses a search without login', async () => {
    const { s, cookies } = await team();
    const session = writeSession(s, chat(['hello']));
    const renamed = await s.app.inject({
      method: 'PATCH',
      url: `/api/sessions/${session.sessionId}`,
      headers: { cookie: cookies.ann! },
      payload: { name: 'Quarterly numbers' },
    });
    expect(renamed.statusCode).toBe(200);
    const answer = SearchAnswerSchema.parse((await search(s, 'quarterly', cookies.vic)).json());
    expect(answer.results[0]!.hits[0]).toMatchObject({ where: 'name', match: [0, 9] });
    expect((await search(s, 'quarterly')).statusCode).toBe(401);
  });
});

describe('a search whose client goes away', () => {
  it('stops reading: its worker is terminated', async () => {
    const s = await tests.start();
    // Lines of 1 MB, every one parsed for a query of two words: a search that takes a while.
    const big = 'z'.repeat(1 << 20);
    for (let i = 0; i < 20; i++)
      writeSession(
        s,
        Array.from({ length: 5 }, () => ({ role: 'user' as const, text: big })),
      );
    const before = abortedSearches();
    const client = new AbortController();
    const request = fetch(`${s.url}/api/workspaces/${s.workspaceId}/search?q=two%20words`, {
      signal: client.signal,
    }).catch((error: unknown) => error);
    await expect.poll(() => activeSearchWorkers(), { interval: 1 }).toBe(1);
    client.abort();
    expect(await request).toBeInstanceOf(Error);
    await expect.poll(() => activeSearchWorkers()).toBe(0);
    expect(abortedSearches()).toBe(before + 1);
  });
});

describe('session list permissions', () => {
  it('tells a member an ownerless session is not theirs to rename or delete, and the routes agree', async () => {
    const { s, cookies } = await team();
    const pi = writeSession(s, chat(['made by pi']));
    const list = async (cookie: string) =>
      SessionListSchema.parse(
        (
          await s.app.inject({
            url: `/api/workspaces/${s.workspaceId}/sessions`,
            headers: { cookie },
          })
        ).json(),
      ).sessions.find((row) => row.id === pi.sessionId)!;

    expect((await list(cookies.max!)).may).toEqual({ rename: false, delete: false });
    expect((await list(cookies.vic!)).may).toEqual({ rename: false, delete: false });
    expect((await list(cookies.ann!)).may).toEqual({ rename: true, delete: true });

    const rename = await s.app.inject({
      method: 'PATCH',
      url: `/api/sessions/${pi.sessionId}`,
      headers: { cookie: cookies.max! },
      payload: { name: 'mine now' },
    });
    expect(rename.statusCode).toBe(403);
    const remove = await s.app.inject({
      method: 'DELETE',
      url: `/api/sessions/${pi.sessionId}`,
      headers: { cookie: cookies.max! },
    });
    expect(remove.statusCode).toBe(403);
    expect((await list(cookies.ann!)).name).toBeUndefined();
  });
});
