import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserStore } from '../auth/user-store.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { ModelCatalog } from '../models/model-catalog.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';
import { loginCookie } from './test-support/login-cookie.js';
import { startRecordingProxy } from './test-support/recording-proxy.js';

/*
 * The editor's `!command` over a real WebSocket with real logins: `bash` saves pi's bashExecution
 * message, the next request to the model (demo model behind a recording proxy) carries its output
 * as pi's "Ran `cmd`" text, `!!` (excludeFromContext) is saved but left out, and a viewer is refused.
 */

const USERS = { max: 'member', mia: 'member', vic: 'viewer' } as const;
type Name = keyof typeof USERS;

let demo: RunningDemoModel;
let proxy: { url: string; close(): Promise<void> };
let server: TestServer;
const bodies: { messages: { role: string; content: unknown }[] }[] = [];
const clients = {} as Record<Name, WsTestClient>;
let sessionId: string;
let proxyUrl: string;

function login(token: string): Promise<string> {
  return loginCookie(server.url, token);
}

async function prompt(text: string): Promise<void> {
  const done = clients.max.waitForEvent(sessionId, 'agent_end', 30_000);
  await clients.max.ok({ type: 'prompt', sessionId, text });
  await done;
}

function sessionFile(): string {
  const dir = path.join(server.dataDir, 'sessions');
  const name = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .find((file) => file.endsWith(`_${sessionId}.jsonl`));
  if (!name) throw new Error('no session file');
  return path.join(dir, name);
}

function lastLine(): Record<string, unknown> {
  const lines = fs.readFileSync(sessionFile(), 'utf8').trimEnd().split('\n');
  return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
}

/** The texts of the messages of the last request the model got, as `role: text`. */
function lastRequestTexts(): string[] {
  const body = bodies.at(-1)!;
  return body.messages
    .filter((message) => message.role !== 'system')
    .map((message) => {
      const content = message.content;
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((part: { text?: string }) => part.text ?? '').join('')
            : '';
      return `${message.role}: ${text}`;
    });
}

beforeAll(async () => {
  demo = await startDemoModel({ port: 0 });
  proxy = await startRecordingProxy(demo.baseUrl, bodies);
  proxyUrl = proxy.url;
  const tokens = {} as Record<Name, string>;
  server = await startTestServer({
    prepare: async (dataDir) => {
      fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'data-folder-secret');
      const users = new UserStore(dataDir);
      for (const [name, role] of Object.entries(USERS)) {
        tokens[name as Name] = (await users.add(name, role)).token;
      }
    },
    build: {
      catalog: ModelCatalog.load({ dataDir: '/nonexistent', demoBaseUrl: proxyUrl, env: {} }),
    },
  });
  for (const name of Object.keys(USERS) as Name[]) {
    clients[name] = await WsTestClient.open(server.wsUrl, { cookie: await login(tokens[name]) });
  }
  ({ sessionId } = await clients.max.ok<{ sessionId: string }>({
    type: 'new_session',
    workspaceId: server.workspaceId,
  }));
  for (const client of Object.values(clients)) await client.ok({ type: 'subscribe', sessionId });
}, 60_000);

afterAll(async () => {
  for (const client of Object.values(clients)) await client.close();
  await server.close();
  await proxy.close();
  await demo.close();
});

describe('bash (the editor shell command)', () => {
  it('!cmd output enters the next request; !!cmd is saved but not sent', async () => {
    await clients.max.ok({ type: 'bash', sessionId, command: 'echo marker-one' });
    expect(lastLine()).toMatchObject({
      type: 'message',
      message: {
        role: 'bashExecution',
        command: 'echo marker-one',
        output: 'marker-one\n',
        exitCode: 0,
      },
    });
    await clients.max.ok({
      type: 'bash',
      sessionId,
      command: 'echo marker-two',
      excludeFromContext: true,
    });
    expect(lastLine()).toMatchObject({
      message: { role: 'bashExecution', output: 'marker-two\n', excludeFromContext: true },
    });
    await prompt('next');
    const sent = lastRequestTexts().join('\n');
    expect(sent).toContain('Ran `echo marker-one`');
    expect(sent).toContain('marker-one');
    expect(sent).not.toContain('marker-two');
  });

  it('runs in the sandbox: the data folder cannot be read', async () => {
    const command = `cat ${server.dataDir}/notes.txt; echo "found: $(find ${server.dataDir} -mindepth 1 2>/dev/null | wc -l)"`;
    await clients.max.ok({ type: 'bash', sessionId, command });
    const saved = lastLine() as { message: { output: string; exitCode: number } };
    expect(saved.message.output).toContain('found: 0');
    expect(saved.message.output).not.toContain('data-folder-secret');
  });

  it('refuses a viewer, writing nothing', async () => {
    const before = fs.readFileSync(sessionFile());
    const answer = await clients.vic.request({ type: 'bash', sessionId, command: 'echo no' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fs.readFileSync(sessionFile()).equals(before)).toBe(true);
  });
});
