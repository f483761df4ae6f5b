import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionDirFor } from '../store/session-paths.js';
import { assistantLine, headerLine, userLine } from './test-support/session-lines.js';
import { serverPerTest, type TestServer } from './test-support/test-server.js';

/*
 * Exports under attack: a viewer exporting a session of hostile markdown must not freeze the
 * server, and readers who never read must not pile whole pages up in its memory.
 */

const tests = serverPerTest();
const SESSION_ID = '22222222-3333-4444-8555-666666666666';

/** A session in the server's workspace whose answers are `answers`, one prompt before each. */
function writeAnswers(server: TestServer, answers: string[]): void {
  const dir = sessionDirFor(server.dataDir, server.workspacePath);
  fs.mkdirSync(dir, { recursive: true });
  let text = headerLine(SESSION_ID, server.workspacePath);
  let parent: string | null = null;
  answers.forEach((answer, i) => {
    text += userLine(`u${i}`, parent, `Question ${i}`) + assistantLine(`a${i}`, `u${i}`, answer);
    parent = `a${i}`;
  });
  fs.writeFileSync(path.join(dir, `2026-12-01T12-00-00-000Z_${SESSION_ID}.jsonl`), text);
}

/** About 30 MB of page: more than the socket's buffers hold for a reader who does not read. */
const BIG_ANSWERS = Array.from({ length: 600 }, (_, i) => `${i} `.padEnd(50_000, 'x'));

const exportPath = `/api/sessions/${SESSION_ID}/export.html`;

/**
 * An export whose reader takes its first bytes and then reads nothing: a raw socket, so no HTTP
 * client reads ahead into its own buffers (and the kernel's receive window stays small, as it grows
 * only while the application reads). `ended` resolves with all it got once the server closes it.
 */
function unreadExport(server: TestServer, cookie: string) {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.setEncoding('latin1');
  socket.write(`GET ${exportPath} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n\r\n`);
  let received = '';
  const status = new Promise<number>((resolve, reject) => {
    socket.once('data', (chunk: string) => {
      socket.pause();
      received += chunk;
      resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(chunk)?.[1]));
    });
    socket.once('error', reject);
  });
  const ended = new Promise<string>((resolve) => {
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
  });
  /** Reads everything that arrived and whatever still comes, until the server closes. */
  const drain = () => {
    socket.on('error', () => undefined);
    socket.resume();
    return ended;
  };
  return { socket, status, drain };
}

/** Asks for an export every 100 ms while the answer is 429, for about five seconds. */
async function exportWhenFree(server: TestServer, cookie: string): Promise<Response> {
  let response = await fetch(`${server.url}${exportPath}`, { headers: { cookie } });
  for (let i = 0; response.status === 429 && i < 50; i++) {
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    response = await fetch(`${server.url}${exportPath}`, { headers: { cookie } });
  }
  return response;
}

describe('exporting a session', () => {
  it('renders hostile markdown off the event loop: the server answers while it runs', async () => {
    const { server, cookies } = await tests.startTeam({ vic: 'viewer' });
    // Each answer just under the markdown limit, each costing micromark about half a second.
    writeAnswers(
      server,
      Array.from({ length: 30 }, () => '*a'.repeat(9_990)),
    );
    let exported: string | undefined;
    const exporting = fetch(`${server.url}${exportPath}`, {
      headers: { cookie: cookies.vic },
    }).then(async (res) => (exported = `${res.status} ${await res.text()}`));
    // Sent after the export and answered before it ends: nothing held the event loop.
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(exported).toBeUndefined();
    await exporting;
    expect(exported).toMatch(/^200 <!doctype html>/);
    expect(exported).toContain('</html>');
    // The export's markdown time ran out before its thirty answers did.
    expect(exported).toContain('Shown as plain text: this export spent its time on markdown.');
  });

  it('runs two exports at once, one per user, and frees a slot when its reader leaves', async () => {
    const { server, cookies } = await tests.startTeam(
      { ann: 'viewer', bob: 'viewer', cat: 'viewer' },
      { build: { exportLimits: { slots: 2, perCaller: 1, stallMs: 60_000 } } },
    );
    writeAnswers(server, BIG_ANSWERS);
    const ann = unreadExport(server, cookies.ann);
    expect(await ann.status).toBe(200);
    const again = await fetch(`${server.url}${exportPath}`, { headers: { cookie: cookies.ann } });
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('5');
    expect(await again.json()).toMatchObject({ error: { code: 'rate_limited' } });
    const bob = unreadExport(server, cookies.bob);
    expect(await bob.status).toBe(200);
    const cat = await fetch(`${server.url}${exportPath}`, { headers: { cookie: cookies.cat } });
    expect(cat.status).toBe(429);
    await cat.body?.cancel();

    // Ann gives up: her export stops and its slot goes to Cat, who reads the whole page.
    ann.socket.destroy();
    const later = await exportWhenFree(server, cookies.cat);
    expect(later.status).toBe(200);
    const page = await later.text();
    expect(page).toContain('599 xxx');
    expect(page.endsWith('</html>\n')).toBe(true);
    bob.socket.destroy();
  });

  it('drops a download nobody reads, unfinished, and frees its slot', async () => {
    const { server, cookies } = await tests.startTeam(
      { ann: 'viewer', bob: 'viewer' },
      { build: { exportLimits: { slots: 1, perCaller: 1, stallMs: 1_000 } } },
    );
    writeAnswers(server, BIG_ANSWERS);
    const ann = unreadExport(server, cookies.ann);
    expect(await ann.status).toBe(200);
    // Ann reads nothing more: a second of that and the server drops her download by itself.
    const later = await exportWhenFree(server, cookies.bob);
    expect(later.status).toBe(200);
    expect((await later.text()).endsWith('</html>\n')).toBe(true);
    const got = await ann.drain();
    expect(got).toContain('<!doctype html>');
    expect(got).not.toContain('</html>');
  });
});
