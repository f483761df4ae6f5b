import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStats } from '../../shared/session-stats-schema.js';
import { sessionDirFor } from '../store/session-paths.js';
import { PI16_NODE } from '../store/test-support/pi16-oracle.js';
import { startTeamServer, type TestServer } from '../app/test-support/test-server.js';
import { WsTestClient } from '../app/test-support/ws-test-client.js';

/*
 * Session statistics against pi 1.6's own numbers: pi 1.6's SessionManager writes a session whose
 * usage is spread over providers, a renamed response model, usage entries, a tool's own call, a
 * compaction and a branch summary, on two branches. Arbor's `get_session_stats` over a real
 * WebSocket gives for the whole session what pi 1.6's AgentSession.getSessionStats gives, and per model
 * (for the session and for the active path) what pi's getUsageCostBreakdown gives. A viewer may ask.
 */

const run = promisify(execFile);
const PI16_INDEX = path.resolve(
  'oracles/pi16/node_modules/@earendil-works/pi-coding-agent/dist/index.js',
);
const CHILD = path.resolve('server/store/test-support/pi16-stats-child.mjs');

interface PiBreakdown {
  key: string;
  cost: number;
  tokens: number;
}
interface Crafted {
  file: string;
  leafId: string;
  session: PiBreakdown[];
  branch: PiBreakdown[];
  stats: Record<string, unknown>;
}

let server: TestServer;
let crafted: Crafted;
let agentDir: string;
let viewerCookie: string;

beforeAll(async () => {
  const team = await startTeamServer({ vic: 'viewer', ann: 'admin' });
  server = team.server;
  viewerCookie = team.cookies.vic;
  agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi16-stats-'));
  const sessionDir = sessionDirFor(server.dataDir, server.workspacePath);
  const { stdout } = await run(PI16_NODE, [CHILD, PI16_INDEX, server.workspacePath, sessionDir], {
    env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' },
  });
  crafted = JSON.parse(stdout) as Crafted;
}, 60_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(agentDir, { recursive: true, force: true });
});

const near = (a: number, b: number) => expect(a).toBeCloseTo(b, 12);

describe('get_session_stats', () => {
  it("gives pi 1.6's totals for the session and its per-model breakdown for the session and the path", async () => {
    const client = await WsTestClient.open(server.wsUrl, { cookie: viewerCookie });
    try {
      const sessionId = 'stats.kinds_1';
      await client.ok({ type: 'subscribe', sessionId });
      const stats = await client.ok<SessionStats>({ type: 'get_session_stats', sessionId });
      const pi = crafted.stats;

      const { session, branch } = stats;
      expect({
        userMessages: session.userMessages,
        assistantMessages: session.assistantMessages,
        toolCalls: session.toolCalls,
        toolResults: session.toolResults,
        totalMessages: session.totalMessages,
        tokens: session.tokens,
      }).toEqual({
        userMessages: pi.userMessages,
        assistantMessages: pi.assistantMessages,
        toolCalls: pi.toolCalls,
        toolResults: pi.toolResults,
        totalMessages: pi.totalMessages,
        tokens: pi.tokens,
      });
      near(session.cost, pi.cost as number);
      expect(stats.sessionId).toBe(pi.sessionId);

      for (const [ours, theirs] of [
        [session.byModel, crafted.session],
        [branch.byModel, crafted.branch],
      ] as const) {
        expect(ours.map((row) => row.key)).toEqual(theirs.map((row) => row.key));
        ours.forEach((row, i) => {
          expect(row.total).toBe(theirs[i]!.tokens);
          expect(row.input + row.output + row.cacheRead + row.cacheWrite).toBe(row.total);
          near(row.cost, theirs[i]!.cost);
        });
      }
      // The path holds only what the active branch carries; the session, everything.
      expect(stats.entryId).toBe(crafted.leafId);
      near(
        branch.cost,
        crafted.branch.reduce((sum, row) => sum + row.cost, 0),
      );
      expect(branch.tokens.total).toBeLessThan(session.tokens.total);
      expect(session.byModel.find((row) => row.key === 'other/big-b')).toMatchObject({
        input: 4700,
        output: 960,
        cacheRead: 3000,
        cacheWrite: 2000,
      });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('reports the path to another entry when asked, and refuses an entry that is not there', async () => {
    const client = await WsTestClient.open(server.wsUrl, { cookie: viewerCookie });
    try {
      const sessionId = 'stats.kinds_1';
      await client.ok({ type: 'subscribe', sessionId });
      const { branch: leafPath } = await client.ok<SessionStats>({
        type: 'get_session_stats',
        sessionId,
      });
      const lines = fs.readFileSync(crafted.file, 'utf8').trim().split('\n').slice(1);
      const bigB = lines
        .map((line) => JSON.parse(line) as { id: string; message?: { model?: string } })
        .filter((entry) => entry.message?.model === 'big-b')
        .at(-1)!;
      const other = await client.ok<SessionStats>({
        type: 'get_session_stats',
        sessionId,
        entryId: bigB.id,
      });
      expect(other.entryId).toBe(bigB.id);
      expect(other.branch.byModel.map((row) => row.key)).toContain('other/big-b');
      expect(leafPath.byModel.map((row) => row.key)).not.toContain('other/big-b');
      const missing = await client.request({
        type: 'get_session_stats',
        sessionId,
        entryId: 'nope1234',
      });
      expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      await client.close();
    }
  }, 60_000);
});
