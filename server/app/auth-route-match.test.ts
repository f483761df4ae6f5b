import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamServer, type TestServer } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * The login check decides on the route the router matched, not on the URL as sent: every spelling
 * of a private route that the router still matches (percent-encoded letters, double or trailing
 * slashes, case, `;` parameters) is refused without a cookie, over a real socket, with the path
 * sent byte for byte as written here.
 */

const FIXTURE = '/work/shared/fixtures/pi/v3-rpc-session.jsonl';
const FIXTURE_ID = 'a8620d24-4fae-4f42-a111-4127c7e5f474';

let server: TestServer;

/** Sends `pathAsSent` as the request target, without any normalisation by a client. */
function rawRequest(method: string, pathAsSent: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path: pathAsSent, headers: { accept: '*/*' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  const team = await startTeamServer({ ann: 'admin' });
  server = team.server;
  const cookie = team.cookies.ann;
  const imported = await server.app.inject({
    method: 'POST',
    url: `/api/workspaces/${server.workspaceId}/import`,
    headers: { 'content-type': 'application/x-ndjson', cookie },
    payload: fs.readFileSync(FIXTURE, 'utf8'),
  });
  expect(imported.statusCode).toBe(201);
  // The session is there for a logged-in caller, so a leak would show it.
  const listed = await server.app.inject({
    url: `/api/workspaces/${server.workspaceId}/sessions`,
    headers: { cookie },
  });
  expect(listed.body).toContain('hello there');
});

afterAll(async () => {
  await server?.close();
});

describe('a private route without a login cookie', () => {
  const spellings = (id: string) => [
    `/api/workspaces/${id}/sessions`,
    `/%61pi/workspaces/${id}/sessions?q=`,
    `/%61%70%69/workspaces/${id}/sessions`,
    `/api/%77orkspaces/${id}/sessions`,
    `/%2561pi/workspaces/${id}/sessions`,
    `//api/workspaces/${id}/sessions`,
    `/api//workspaces/${id}/sessions`,
    `/api/workspaces/${id}/sessions/`,
    `/API/workspaces/${id}/sessions`,
    `/Api/Workspaces/${id}/sessions`,
    `/api/workspaces/${id}/sessions;x=1`,
    `/api/workspaces;/${id}/sessions`,
    `/api/health/../workspaces/${id}/sessions`,
    `/api/workspaces`,
    `/%61pi/workspaces`,
    `/api/sessions/${FIXTURE_ID}/download`,
    `/%61pi/sessions/${FIXTURE_ID}/download`,
    `/api/sessions/${FIXTURE_ID}%2Fdownload`,
  ];

  it('never answers with data, however the path is spelt', async () => {
    for (const method of ['GET', 'HEAD']) {
      for (const spelling of spellings(server.workspaceId)) {
        const { status, body } = await rawRequest(method, spelling);
        // A spelling the router matches to no route gets the page (here: the "not built" text)
        // or a 404; never the route's answer.
        if (status < 400) expect(body, `${method} ${spelling}`).not.toMatch(/^[{[]/);
        // The first prompt is in the listing and the download; the path in the workspace list.
        expect(body, `${method} ${spelling}`).not.toContain('hello there');
        expect(body, `${method} ${spelling}`).not.toContain(server.workspacePath);
      }
    }
  });

  it('is refused as unauthorized when the router matches it, whatever the encoding', async () => {
    for (const spelling of [
      `/%61pi/workspaces/${server.workspaceId}/sessions`,
      `/api/%77orkspaces/${server.workspaceId}/sessions`,
      `/%61pi/workspaces`,
    ]) {
      const { status, body } = await rawRequest('GET', spelling);
      expect(status, spelling).toBe(401);
      expect(JSON.parse(body)).toEqual({
        error: { code: 'unauthorized', message: 'Log in first.' },
      });
    }
  });

  it('refuses the WebSocket upgrade under any spelling the router matches', async () => {
    const base = server.wsUrl.replace(/\/api\/ws$/, '');
    for (const spelling of ['/api/ws', '/%61pi/ws', '/api/%77s', '/%61%70%69/%77%73']) {
      await expect(WsTestClient.connect(`${base}${spelling}`), spelling).rejects.toThrow(
        /upgrade refused: 401/,
      );
    }
  });

  it('leaves the public routes public under any spelling the router matches', async () => {
    expect((await rawRequest('GET', '/api/health')).status).toBe(200);
    expect((await rawRequest('GET', '/%61pi/health')).status).toBe(200);
    expect((await rawRequest('GET', '/api/me')).status).toBe(401);
  });
});
