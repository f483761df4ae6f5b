import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../shared/messages.js';
import type { EventFrame } from '../../shared/protocol.js';
import { loadConfig } from '../config/load-config.js';
import { SessionStore } from '../store/session-store.js';
import { buildApp } from './build-app.js';
import { mountSmallDisk, type SmallDisk } from './test-support/small-disk.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * A full disk under a running server (decision 053): the client hears "disk full", a run that
 * cannot save its tool result ends cleanly (its error shown, agent_end sent), and nothing saved
 * before is lost. The disk is a real tmpfs, filled for real.
 */

let root: string;
let disk: SmallDisk;
let app: FastifyInstance;
let client: WsTestClient;
let workspaceId: string;
let baseUrl: string;
let sessionFileOf: (sessionId: string) => string;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-disk-full-'));
  const workspace = path.join(root, 'ws');
  fs.mkdirSync(workspace);
  // A tool result of about 40 KB, more than the disk will have left.
  fs.writeFileSync(
    path.join(workspace, 'big.txt'),
    Array.from({ length: 800 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n'),
  );
  disk = mountSmallDisk(path.join(root, 'data'), 1024 * 1024);
  const config = loadConfig({
    flags: { dataDir: disk.dir, workspaces: [workspace], host: '127.0.0.1', port: '0' },
    env: {},
    cwd: root,
    homeDir: root,
  });
  app = await buildApp({ config: { ...config, logLevel: 'silent' }, webRoot: null });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  baseUrl = `http://127.0.0.1:${port}`;
  client = await WsTestClient.open(`ws://127.0.0.1:${port}/api/ws`);
  workspaceId = config.workspaces[0]!.id;
  sessionFileOf = (sessionId) => app.arbor.locator.locate(sessionId)!.file;
});

afterEach(async () => {
  await client.close().catch(() => undefined);
  disk.free();
  await app.close();
  disk.unmount();
  fs.rmSync(root, { recursive: true, force: true });
});

async function newSession(): Promise<string> {
  const sessionId = await client.newSession(workspaceId);
  await app.arbor.owners.flush();
  return sessionId;
}

function eventsOf(sessionId: string): EventFrame['event'][] {
  return client.events(sessionId).map((frame) => frame.event);
}

function messagesOnDisk(file: string): AgentMessage[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { type: string; message?: AgentMessage })
    .flatMap((entry) => (entry.type === 'message' && entry.message ? [entry.message] : []));
}

describe('a full disk', () => {
  it('ends a run whose tool result cannot be saved with agent_end and a "disk full" error, keeping what was saved', async () => {
    const sessionId = await newSession();
    const file = sessionFileOf(sessionId);
    disk.fill(8 * 1024);

    const ended = client.waitForEvent(sessionId, 'agent_end', 30_000);
    await client.ok({
      type: 'prompt',
      sessionId,
      text: 'read it\n/tool read {"path":"big.txt"}',
    });
    await ended;

    const events = eventsOf(sessionId);
    const types = events.map((event) => event.type);
    expect(types).toContain('tool_execution_end');
    const failure = events.findLast(
      (event) => event.type === 'message_end' && event.message.role === 'assistant',
    );
    expect(failure).toMatchObject({
      message: { stopReason: 'error', errorMessage: expect.stringMatching(/disk is full/) },
    });
    expect(types.indexOf('agent_end')).toBeGreaterThan(types.lastIndexOf('message_end'));
    // Only the session's state, pushed when the run is over, may follow the run's agent_end.
    expect(types.filter((type) => type !== 'state_changed').at(-1)).toBe('agent_end');
    const state = await client.ok<{ isStreaming: boolean }>({ type: 'get_state', sessionId });
    expect(state.isStreaming).toBe(false);

    // Every line on disk is whole; the prompt and the tool call are kept, the result is not.
    const saved = messagesOnDisk(file);
    expect(saved.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
    expect(fs.readFileSync(file, 'utf8').endsWith('\n')).toBe(true);

    // With room again, the session goes on from where it stood, and pi reads the file.
    disk.free();
    const again = client.waitForEvent(sessionId, 'agent_end', 30_000);
    await client.ok({ type: 'prompt', sessionId, text: 'and now?' });
    await again;
    expect(messagesOnDisk(file).map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(SessionManager.open(file).getEntries().length).toBeGreaterThan(4);
    const reopened = SessionStore.openReadOnly(file);
    expect(reopened.openReport.badLines).toEqual([]);
    reopened.close();
  }, 60_000);

  it('answers a command that must write with disk_full, not internal', async () => {
    await newSession();
    disk.fill(0);
    const response = await client.request({ type: 'new_session', workspaceId });
    expect(response).toMatchObject({
      ok: false,
      error: { code: 'disk_full', message: expect.stringMatching(/disk is full/) },
    });
    // Over HTTP too: an import that cannot be stored answers 507 disk_full.
    const header = {
      type: 'session',
      version: 3,
      id: 'c0ffee00-0000-4000-8000-000000000001',
      timestamp: new Date().toISOString(),
      cwd: root,
    };
    const message = {
      type: 'message',
      id: 'aaaa0001',
      parentId: null,
      timestamp: header.timestamp,
      message: { role: 'user', content: 'x'.repeat(20_000), timestamp: Date.now() },
    };
    const imported = await fetch(`${baseUrl}/api/workspaces/${workspaceId}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`,
    });
    expect(imported.status).toBe(507);
    expect(await imported.json()).toMatchObject({ error: { code: 'disk_full' } });
  }, 60_000);
});
