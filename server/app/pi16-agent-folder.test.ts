import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { sessionDirFor } from '../store/session-paths.js';
import { runPi16Cli } from '../store/test-support/pi16-oracle.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * `arbor serve --data <pi's agent folder>` beside the real pi 1.6 CLI: one folder, one models.json
 * in pi's own form, pi's sessions. pi (PI_CODING_AGENT_DIR = Arbor's data folder) and Arbor both
 * reach Arbor's demo model through the provider that file declares, with the key the file names,
 * and the sessions pi writes under custom ids open and download in Arbor.
 */

const KEY_VARIABLE = 'ARBOR_PI16_TEST_KEY';
const KEY = 'sk-test-key-from-the-environment';

/** Arbor's demo model behind a relay that records who asked for what, with which key. */
interface RecordedRequest {
  authorization: string | undefined;
  model: string | undefined;
  lastUserText: string | undefined;
}

let demo: RunningDemoModel;
let relay: http.Server;
let relayUrl: string;
const requests: RecordedRequest[] = [];
let server: TestServer;
let previousKey: string | undefined;
let serverLog = '';

function userText(body: { messages?: { role: string; content: unknown }[] }): string | undefined {
  const user = body.messages?.filter((m) => m.role === 'user').at(-1);
  if (!user) return undefined;
  return typeof user.content === 'string' ? user.content : JSON.stringify(user.content);
}

function startRelay(target: string): Promise<http.Server> {
  const relayServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') {
        const parsed = JSON.parse(body.toString('utf8')) as { model?: string };
        requests.push({
          authorization: req.headers.authorization,
          model: parsed.model,
          lastUserText: userText(parsed as never),
        });
      }
      const upstream = http.request(
        `${target}${req.url?.replace(/^\/v1/, '') ?? ''}`,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.end(body);
    });
  });
  return new Promise((resolve) => relayServer.listen(0, '127.0.0.1', () => resolve(relayServer)));
}

/** pi's models.json as a pi user who also tried Arbor's demo model would have it. */
function piModelsJson() {
  return {
    $schema: 'https://pi.dev/schemas/models.schema.json',
    providers: {
      'arbor-relay': {
        baseUrl: relayUrl,
        api: 'openai-completions',
        apiKey: `$${KEY_VARIABLE}`,
        models: [{ id: 'scripted', name: 'Scripted demo', contextWindow: 64_000, maxTokens: 4096 }],
      },
      'claude-proxy': {
        baseUrl: 'https://claude-proxy.example.com',
        api: 'anthropic-messages',
        apiKey: '$CLAUDE_KEY',
        models: [{ id: 'claude-sonnet-4' }],
      },
      'bedrock-proxy': {
        baseUrl: 'https://bedrock.example.com',
        api: 'bedrock-converse-stream',
        apiKey: '$CLAUDE_KEY',
        models: [{ id: 'claude-on-bedrock' }],
      },
      google: { apiKey: '!printf %s not-a-real-key' },
    },
  };
}

function piPrint(prompt: string, sessionId: string) {
  return runPi16Cli(
    ['-p', '--provider', 'arbor-relay', '--model', 'scripted', '--session-id', sessionId, prompt],
    { cwd: server.workspacePath, agentDir: server.dataDir },
  );
}

function sessionFileOf(sessionId: string): string {
  const dir = sessionDirFor(server.dataDir, server.workspacePath);
  const name = fs.readdirSync(dir).find((file) => file.endsWith(`_${sessionId}.jsonl`));
  if (!name) throw new Error(`pi wrote no file for ${sessionId} in ${dir}`);
  return path.join(dir, name);
}

beforeAll(async () => {
  previousKey = process.env[KEY_VARIABLE];
  // Arbor (this process) and pi (its child) read the key from the same environment.
  process.env[KEY_VARIABLE] = KEY;
  demo = await startDemoModel();
  relay = await startRelay(demo.baseUrl);
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/v1`;
  server = await startTestServer({
    build: {
      logger: {
        level: 'warn',
        stream: { write: (line: string) => void (serverLog += line) },
      },
    },
    prepare: (dataDir) => {
      fs.writeFileSync(path.join(dataDir, 'models.json'), JSON.stringify(piModelsJson()));
    },
  });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => relay?.close(resolve));
  await demo?.close();
  if (previousKey === undefined) delete process.env[KEY_VARIABLE];
  else process.env[KEY_VARIABLE] = previousKey;
});

describe("--data pointed at pi's agent folder", () => {
  it("serves with pi's models.json, and pi and Arbor send the key the file names", async () => {
    const pi = await piPrint('hello from pi', 'keys-check-1');
    expect(pi.stderr).not.toMatch(/error/i);
    expect(pi.code).toBe(0);
    expect(pi.stdout).toContain('hello from pi');
    const fromPi = requests.find((r) => r.lastUserText?.includes('hello from pi'));
    expect(fromPi).toMatchObject({ authorization: `Bearer ${KEY}`, model: 'scripted' });

    const client = await WsTestClient.open(server.wsUrl);
    try {
      await client.ok({ type: 'subscribe', sessionId: 'keys-check-1' });
      const snapshot = (await client.seen((m) => m.type === 'snapshot')) as Snapshot;
      expect(snapshot.models.map((m) => `${m.provider}/${m.id}`)).toContain('arbor-relay/scripted');
      // Anthropic's API is one Arbor offers (through pi-ai); Bedrock's is not yet.
      expect(snapshot.models.map((m) => `${m.provider}/${m.id}`)).toContain(
        'claude-proxy/claude-sonnet-4',
      );
      expect(snapshot.models.map((m) => m.id)).not.toContain('claude-on-bedrock');
      // Arbor continues pi's session with pi's model, through the same provider and key.
      const done = client.waitForEvent('keys-check-1', 'agent_end');
      await client.ok({ type: 'prompt', sessionId: 'keys-check-1', text: 'hello from arbor' });
      await done;
    } finally {
      client.close();
    }
    const fromArbor = requests.find((r) => r.lastUserText?.includes('hello from arbor'));
    expect(fromArbor).toMatchObject({ authorization: `Bearer ${KEY}`, model: 'scripted' });
  });

  it('names in its log each provider and model of the file it cannot use, and why', () => {
    const warnings = serverLog
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { msg: string }).msg)
      .filter((msg) => msg.startsWith('models.json:'));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^models\.json: Arbor cannot use model "claude-on-bedrock" of provider "bedrock-proxy": it uses the "bedrock-converse-stream" API/,
      ),
      expect.stringMatching(
        /^models\.json: Arbor cannot use provider "google": it takes its apiKey from a command .* which Arbor does not run/,
      ),
    ]);
    expect(serverLog).not.toContain(KEY);
  });

  it('opens and downloads a session pi wrote with a custom id, found by its header', async () => {
    const pi = await piPrint('a custom id', 'my.id_1');
    expect(pi.code).toBe(0);
    const file = sessionFileOf('my.id_1');
    expect(path.basename(file)).toMatch(/^[^_]+_my\.id_1\.jsonl$/);

    // Opened before any listing: the server finds the file by reading headers.
    const client = await WsTestClient.open(server.wsUrl);
    try {
      await client.ok({ type: 'subscribe', sessionId: 'my.id_1' });
      const snapshot = (await client.seen(
        (m) => m.type === 'snapshot' && m.sessionId === 'my.id_1',
      )) as Snapshot;
      expect(snapshot.header.id).toBe('my.id_1');
      expect(snapshot.messages.some((m) => JSON.stringify(m).includes('a custom id'))).toBe(true);
    } finally {
      client.close();
    }

    const download = await fetch(`${server.url}/api/sessions/my.id_1/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain(path.basename(file));
    expect(Buffer.from(await download.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);

    const listing = await fetch(`${server.url}/api/workspaces/${server.workspaceId}/sessions`);
    const { sessions } = (await listing.json()) as { sessions: { id: string }[] };
    expect(sessions.map((s) => s.id)).toContain('my.id_1');
  });

  it("finds a custom id whose file name does not end in it (the header's id is the id)", async () => {
    const pi = await piPrint('renamed by hand', 'kept.id_2');
    expect(pi.code).toBe(0);
    const file = sessionFileOf('kept.id_2');
    const renamed = path.join(path.dirname(file), '2026-01-01T00-00-00-000Z_other-name.jsonl');
    fs.renameSync(file, renamed);

    const download = await fetch(`${server.url}/api/sessions/kept.id_2/download`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(fs.readFileSync(renamed))).toBe(true);
    const guessed = await fetch(`${server.url}/api/sessions/other-name/download`);
    expect(guessed.status).toBe(404);
  });
});

describe('a custom-id session pi wrote, in the rest of Arbor', () => {
  it('is deleted, restored and cloned under its header id, and a clone names it as parent', async () => {
    expect((await piPrint('to the trash and back', 'trash.me_3')).code).toBe(0);
    const deleted = await fetch(`${server.url}/api/sessions/trash.me_3`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const { trashed } = (await deleted.json()) as { trashed: string };
    const restored = await fetch(
      `${server.url}/api/workspaces/${server.workspaceId}/trash/${encodeURIComponent(trashed)}/restore`,
      { method: 'POST' },
    );
    expect(await restored.json()).toEqual({ ok: true, sessionId: 'trash.me_3' });

    const client = await WsTestClient.open(server.wsUrl);
    let cloneId: string;
    try {
      await client.ok({ type: 'subscribe', sessionId: 'trash.me_3' });
      ({ sessionId: cloneId } = await client.ok<{ sessionId: string }>({
        type: 'clone',
        sessionId: 'trash.me_3',
      }));
    } finally {
      client.close();
    }
    const listing = await fetch(`${server.url}/api/workspaces/${server.workspaceId}/sessions`);
    const { sessions } = (await listing.json()) as {
      sessions: { id: string; parentSessionId?: string }[];
    };
    expect(sessions.find((s) => s.id === cloneId)?.parentSessionId).toBe('trash.me_3');
  });
});
