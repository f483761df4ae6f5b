import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startRecordedTeamSession,
  type RecordedTeamSession,
} from './test-support/recorded-team-session.js';
import type { TestServer } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';
import { requireSandbox } from '../tools/test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

/*
 * The editor's `!command` over a real WebSocket with real logins: `bash` saves pi's bashExecution
 * message, the next request to the model (demo model behind a recording proxy) carries its output
 * as pi's "Ran `cmd`" text, `!!` (excludeFromContext) is saved but left out, and a viewer is refused.
 */

const USERS = { max: 'member', mia: 'member', vic: 'viewer' } as const;
type Name = keyof typeof USERS;

let team: RecordedTeamSession<Name>;
let server: TestServer;
let clients: Record<Name, WsTestClient>;
let sessionId: string;

beforeAll(async () => {
  team = await startRecordedTeamSession(USERS, 'max', {
    prepare: (dataDir) => {
      fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'data-folder-secret');
    },
  });
  ({ server, clients, sessionId } = team);
}, 60_000);

afterAll(() => team.close());

describe('bash (the editor shell command)', () => {
  it('!cmd output enters the next request; !!cmd is saved but not sent', async () => {
    await clients.max.ok({ type: 'bash', sessionId, command: 'echo marker-one' });
    expect(team.lastLine()).toMatchObject({
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
    expect(team.lastLine()).toMatchObject({
      message: { role: 'bashExecution', output: 'marker-two\n', excludeFromContext: true },
    });
    await team.prompt('next');
    const sent = team.lastRequestTexts().join('\n');
    expect(sent).toContain('Ran `echo marker-one`');
    expect(sent).toContain('marker-one');
    expect(sent).not.toContain('marker-two');
  });

  it('runs in the sandbox: the data folder cannot be read', async () => {
    const command = `cat ${server.dataDir}/notes.txt; echo "found: $(find ${server.dataDir} -mindepth 1 2>/dev/null | wc -l)"`;
    await clients.max.ok({ type: 'bash', sessionId, command });
    const saved = team.lastLine() as { message: { output: string; exitCode: number } };
    expect(saved.message.output).toContain('found: 0');
    expect(saved.message.output).not.toContain('data-folder-secret');
  });

  it('the context meter counts a command output at once', async () => {
    const before = clients.max.events(sessionId).length;
    await clients.max.ok({ type: 'bash', sessionId, command: 'seq 1 3000' });
    const states = clients.max
      .events(sessionId)
      .slice(before)
      .filter((frame) => frame.event.type === 'state_changed');
    expect(states.length).toBeGreaterThan(0);
    const last = states.at(-1)!.event;
    const first = clients.max
      .events(sessionId)
      .findLast((frame, i) => i < before && frame.event.type === 'state_changed')?.event;
    if (last.type !== 'state_changed' || first?.type !== 'state_changed')
      throw new Error('no state');
    // Before, the meter stayed where it was until a reload.
    expect(last.state.contextUsage.tokens ?? 0).toBeGreaterThan(
      (first.state.contextUsage.tokens ?? 0) + 1000,
    );
  });

  it('abort stops a running command, which is saved as cancelled', async () => {
    // Before, the command ran on to its end after abort, and after the session was deleted.
    const answer = clients.max.request({
      type: 'bash',
      sessionId,
      command: 'echo started; sleep 120',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await clients.max.ok({ type: 'abort', sessionId });
    expect(await answer).toMatchObject({ ok: true });
    expect(team.lastLine()).toMatchObject({
      message: { role: 'bashExecution', command: 'echo started; sleep 120', cancelled: true },
    });
  });

  it('refuses a viewer, writing nothing', async () => {
    const before = fs.readFileSync(team.sessionFile());
    const answer = await clients.vic.request({ type: 'bash', sessionId, command: 'echo no' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fs.readFileSync(team.sessionFile()).equals(before)).toBe(true);
  });
});
