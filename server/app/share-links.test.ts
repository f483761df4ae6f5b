import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTILE_SESSION_ID, writeHostileSession } from '../export/test-support/hostile-session.js';
import { sessionDirFor } from '../store/session-paths.js';
import { serverPerTest } from './test-support/test-server.js';

const tests = serverPerTest();

/** A team server whose one session (leaf `label001`) is max's. */
async function team() {
  const { server: s, cookies } = await tests.startTeam(
    { ann: 'admin', max: 'member', mia: 'member', vic: 'viewer' },
    {
      listen: false,
      prepare: (dataDir) => {
        fs.writeFileSync(
          path.join(dataDir, 'owners.json'),
          JSON.stringify({ version: 1, owners: { [HOSTILE_SESSION_ID]: 'max' } }),
        );
      },
    },
  );
  writeHostileSession(sessionDirFor(s.dataDir, s.workspacePath));
  const as = (
    user: keyof typeof cookies | null,
    method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
    url: string,
    payload?: object,
  ) =>
    s.app.inject({
      method,
      url,
      headers: user ? { cookie: cookies[user] } : {},
      ...(payload ? { payload } : {}),
    });
  const share = async (user: keyof typeof cookies, payload: object = {}) =>
    as(user, 'POST', `/api/sessions/${HOSTILE_SESSION_ID}/shares`, payload);
  return { s, as, share };
}

describe('share links', () => {
  it("open, for a viewer, the session's read-only reading at the entry pinned when shared", async () => {
    const { as, share } = await team();
    const made = await share('max');
    expect(made.statusCode).toBe(200);
    const link = made.json() as { token: string; url: string; leafId: string };
    expect(link.leafId).toBe('label001');
    expect(link.url).toBe(`/share/${link.token}`);
    const pinned = (await share('max', { leafId: 'asst0003' })).json() as { url: string };

    const opened = await as('vic', 'GET', link.url);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(`/?session=${HOSTILE_SESSION_ID}&read=label001`);
    expect((await as('vic', 'GET', pinned.url)).headers.location).toContain('read=asst0003');

    const listed = (await as('vic', 'GET', `/api/sessions/${HOSTILE_SESSION_ID}/shares`)).json();
    expect(listed).toMatchObject({ shares: [{ createdBy: 'max', mayRevoke: false }, {}] });
    const own = (await as('max', 'GET', `/api/sessions/${HOSTILE_SESSION_ID}/shares`)).json();
    expect(own).toMatchObject({ shares: [{ mayRevoke: true }, { mayRevoke: true }] });
  });

  it('stops working once revoked, with a page that says so; revoking needs write access', async () => {
    const { as, share } = await team();
    const link = (await share('max')).json() as { token: string; url: string };
    expect((await as('mia', 'DELETE', `/api/shares/${link.token}`)).statusCode).toBe(403);
    expect((await as('vic', 'DELETE', `/api/shares/${link.token}`)).statusCode).toBe(403);
    expect((await as('vic', 'GET', link.url)).statusCode).toBe(302);
    expect((await as('max', 'DELETE', `/api/shares/${link.token}`)).statusCode).toBe(200);
    const revoked = await as('vic', 'GET', link.url);
    expect(revoked.statusCode).toBe(404);
    expect(revoked.headers['content-type']).toContain('text/html');
    expect(revoked.body).toContain('This share link does not exist');
    expect((await as('max', 'DELETE', `/api/shares/${link.token}`)).statusCode).toBe(404);
    // An admin revokes anyone's.
    const other = (await share('max')).json() as { token: string };
    expect((await as('ann', 'DELETE', `/api/shares/${other.token}`)).statusCode).toBe(200);
  });

  it('are made only by those who may write the session', async () => {
    const { share } = await team();
    expect((await share('vic')).statusCode).toBe(403);
    expect((await share('mia')).statusCode).toBe(403);
    expect((await share('ann')).statusCode).toBe(200);
    expect((await share('max', { leafId: 'no-such-entry' })).statusCode).toBe(404);
  });

  it('send a logged-out visitor to log in before saying anything about the link', async () => {
    const { as, share } = await team();
    const link = (await share('max')).json() as { token: string; url: string };
    for (const url of [link.url, '/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const answer = await as(null, 'GET', url);
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toMatch(/^\/\?share=/);
    }
    // Nor does a token log anyone in or list anything.
    expect((await as(null, 'GET', `/api/sessions/${HOSTILE_SESSION_ID}/shares`)).statusCode).toBe(
      401,
    );
  });

  it('are 192-bit random tokens that cannot be guessed from one another nor listed', async () => {
    const { s, as, share } = await team();
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i++)
      tokens.add(((await share('max')).json() as { token: string }).token);
    expect(tokens.size).toBe(20);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // A near miss, a prefix and a non-token all answer the same 404 page.
    const one = [...tokens][0]!;
    const flipped = `${one.slice(0, -1)}${one.endsWith('A') ? 'B' : 'A'}`;
    for (const guess of [flipped, one.slice(0, 31), '..%2Fowners.json', '%00']) {
      const answer = await as('vic', 'GET', `/share/${guess}`);
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toContain('This share link does not exist');
    }
    expect(fs.statSync(path.join(s.dataDir, 'shares.json')).mode & 0o077).toBe(0);
  });

  it('never grant write: a viewer holding a link still cannot change the session', async () => {
    const { as, share } = await team();
    const link = (await share('max')).json() as { url: string };
    expect((await as('vic', 'GET', link.url)).statusCode).toBe(302);
    const rename = await as('vic', 'PATCH', `/api/sessions/${HOSTILE_SESSION_ID}`, {
      name: 'mine',
    });
    expect(rename.statusCode).toBe(403);
    expect((await as('mia', 'DELETE', `/api/sessions/${HOSTILE_SESSION_ID}`)).statusCode).toBe(403);
  });
});
