import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTILE_SESSION_ID, writeHostileSession } from '../export/test-support/hostile-session.js';
import { sessionDirFor } from '../store/session-paths.js';
import { runArborCli } from './test-support/run-cli.js';
import { serverPerTest } from './test-support/test-server.js';

const tests = serverPerTest();

async function teamServerWithSession() {
  const { server, cookies } = await tests.startTeam({ vic: 'viewer' }, { listen: false });
  writeHostileSession(sessionDirFor(server.dataDir, server.workspacePath));
  return { server, cookie: cookies.vic };
}

describe('GET /api/sessions/:id/export.html', () => {
  it('gives a viewer the session as an HTML download, the whole tree or the path', async () => {
    const { server, cookie } = await teamServerWithSession();
    const whole = await server.app.inject({
      url: `/api/sessions/${HOSTILE_SESSION_ID}/export.html`,
      headers: { cookie },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('text/html; charset=utf-8');
    // Named after its first prompt, as the sidebar names it, never by `<timestamp>_<uuid>`.
    expect(whole.headers['content-disposition']).toBe(
      'attachment; filename=a-prompt-on-another-branch.html',
    );
    expect(whole.body).toContain('<title>A prompt on another branch</title>');
    expect(whole.body).toContain('A prompt on another branch');
    const onlyPath = await server.app.inject({
      url: `/api/sessions/${HOSTILE_SESSION_ID}/export.html?scope=path`,
      headers: { cookie },
    });
    expect(onlyPath.statusCode).toBe(200);
    // Only the path shows, in its name and title too: its own first prompt.
    expect(onlyPath.headers['content-disposition']).toBe(
      'attachment; filename=hello-script-alert-user-script-script-script-alert-2-script-path.html',
    );
    expect(onlyPath.body).toContain('<title>Hello &lt;script&gt;alert(');
    expect(onlyPath.body).toContain('Done on the main branch.');
    expect(onlyPath.body).not.toContain('A prompt on another branch');
  });

  it('names a renamed session by its name, in any script', async () => {
    const { server, cookies } = await tests.startTeam({ ada: 'admin' }, { listen: false });
    writeHostileSession(sessionDirFor(server.dataDir, server.workspacePath));
    const renamed = await server.app.inject({
      method: 'PATCH',
      url: `/api/sessions/${HOSTILE_SESSION_ID}`,
      headers: { cookie: cookies.ada },
      payload: { name: 'Plan für 日本' },
    });
    expect(renamed.statusCode).toBe(200);
    const page = await server.app.inject({
      url: `/api/sessions/${HOSTILE_SESSION_ID}/export.html`,
      headers: { cookie: cookies.ada },
    });
    // An ASCII fallback for old clients, and the name itself (RFC 8187) for the others.
    expect(page.headers['content-disposition']).toBe(
      `attachment; filename="plan-f?r-??.html"; filename*=UTF-8''plan-f%C3%BCr-%E6%97%A5%E6%9C%AC.html`,
    );
    expect(page.body).toContain('<title>Plan für 日本</title>');
  });

  it('answers 401 without a login, 404 for an unknown id and 400 for an unknown scope', async () => {
    const { server, cookie } = await teamServerWithSession();
    const url = `/api/sessions/${HOSTILE_SESSION_ID}/export.html`;
    expect((await server.app.inject({ url })).statusCode).toBe(401);
    const unknown = await server.app.inject({
      url: '/api/sessions/99999999-2222-4333-8444-555555555555/export.html',
      headers: { cookie },
    });
    expect(unknown.statusCode).toBe(404);
    const traversal = await server.app.inject({
      url: '/api/sessions/..%2F..%2Fowners/export.html',
      headers: { cookie },
    });
    expect(traversal.statusCode).toBe(404);
    const scope = await server.app.inject({ url: `${url}?scope=every`, headers: { cookie } });
    expect(scope.statusCode).toBe(400);
  });
});

describe('arbor export FILE [OUT.html]', () => {
  it('writes the page beside the file, or where it is told, and prints the path', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-export-cli-'));
    tests.removeAfter(dir);
    const file = writeHostileSession(dir);
    const beside = runArborCli(['export', file]);
    const expected = file.replace(/\.jsonl$/, '.html');
    expect(beside).toMatchObject({ status: 0, stdout: `${expected}\n` });
    expect(fs.readFileSync(expected, 'utf8')).toContain('A prompt on another branch');
    const out = path.join(dir, 'out.html');
    expect(runArborCli(['export', file, out, '--path']).status).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).not.toContain('A prompt on another branch');
    expect(runArborCli(['export']).status).toBe(2);
  });
});
