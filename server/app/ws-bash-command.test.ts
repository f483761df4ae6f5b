import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sessionFileIn,
  startTeamOnSocket,
  type TeamOnSocket,
  type TestServer,
} from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';
import {
  requestTexts,
  startRecordedDemoModel,
  type ModelRequest,
} from './test-support/recording-proxy.js';

/*
 * The editor's `!command` over a real WebSocket with real logins: `bash` saves pi's bashExecution
 * message, the next request to the model (demo model behind a recording proxy) carries its output
 * as pi's "Ran `cmd`" text, `!!` (excludeFromContext) is saved but left out, and a viewer is refused.
 */

const USERS = { max: 'member', mia: 'member', vic: 'viewer' } as const;
type Name = keyof typeof USERS;

let model: Awaited<ReturnType<typeof startRecordedDemoModel>>;
let team: TeamOnSocket<Name>;
let server: TestServer;
const bodies: ModelRequest[] = [];
let clients: Record<Name, WsTestClient>;
let sessionId: string;

async function prompt(text: string): Promise<void> {
  const done = clients.max.waitForEvent(sessionId, 'agent_end', 30_000);
  await clients.max.ok({ type: 'prompt', sessionId, text });
  await done;
}

function sessionFile(): string {
  return sessionFileIn(server.dataDir, sessionId);
}

function lastLine(): Record<string, unknown> {
  const lines = fs.readFileSync(sessionFile(), 'utf8').trimEnd().split('\n');
  return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
}

/** The texts of the messages of the last request the model got, as `role: text`. */
function lastRequestTexts(): string[] {
  return requestTexts(bodies.at(-1)!);
}

beforeAll(async () => {
  model = await startRecordedDemoModel(bodies);
  team = await startTeamOnSocket(USERS, {
    prepare: (dataDir) => {
      fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'data-folder-secret');
    },
    build: { catalog: model.catalog },
  });
  ({ server, clients } = team);
  ({ sessionId } = await clients.max.ok<{ sessionId: string }>({
    type: 'new_session',
    workspaceId: server.workspaceId,
  }));
  for (const client of Object.values(clients)) await client.ok({ type: 'subscribe', sessionId });
}, 60_000);

afterAll(async () => {
  await team.close();
  await model.close();
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
