import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { sessionDirFor } from '../store/session-paths.js';
import { expectSameAsPi16 } from '../store/test-support/pi16-compare.js';
import { runPi16Cli } from '../store/test-support/pi16-oracle.js';
import { Pi16Rpc, type RpcEntry } from '../store/test-support/pi16-rpc.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * The real pi 1.6 CLI writes sessions against Arbor's demo model (print mode and RPC mode, its
 * agent folder being Arbor's data folder): tool calls, a failed attempt and its retry, compaction,
 * names, custom ids, fork and clone. Arbor then reads every file exactly as pi 1.6 does, at every
 * entry; the tree and a snapshot over a real WebSocket hold every entry; and the file is byte for
 * byte what pi wrote after Arbor opened and subscribed to it.
 */

let demo: RunningDemoModel;
let server: TestServer;

beforeAll(async () => {
  demo = await startDemoModel();
  server = await startTestServer({
    prepare: (dataDir) => {
      fs.writeFileSync(
        path.join(dataDir, 'models.json'),
        JSON.stringify({
          providers: {
            arbor: {
              baseUrl: demo.baseUrl,
              api: 'openai-completions',
              apiKey: 'demo',
              models: [{ id: 'arbor-demo', contextWindow: 64_000, maxTokens: 4096 }],
            },
          },
        }),
      );
      // Quick retries; compaction keeps only the latest turn.
      fs.writeFileSync(
        path.join(dataDir, 'settings.json'),
        JSON.stringify({
          retry: { enabled: true, baseDelayMs: 10 },
          compaction: { enabled: true, keepRecentTokens: 40 },
        }),
      );
    },
  });
  fs.writeFileSync(path.join(server.workspacePath, 'a.txt'), 'alpha\nbeta\n');
});

afterAll(async () => {
  await server?.close();
  await demo?.close();
});

const MODEL = ['--provider', 'arbor', '--model', 'arbor-demo'];
const TREE_EXTENSION = path.resolve('server/store/test-support/pi16-tree-extension.mjs');

function sessionFiles(): string[] {
  const dir = sessionDirFor(server.dataDir, server.workspacePath);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((name) => path.join(dir, name));
}

function sessionFileOf(sessionId: string): string {
  const file = sessionFiles().find((f) => f.endsWith(`_${sessionId}.jsonl`));
  if (!file) throw new Error(`pi wrote no file for ${sessionId}`);
  return file;
}

async function printTurn(sessionId: string, prompt: string, extra: string[] = []): Promise<void> {
  const pi = await runPi16Cli(['-p', ...MODEL, '--session-id', sessionId, ...extra, prompt], {
    cwd: server.workspacePath,
    agentDir: server.dataDir,
  });
  expect(pi.code, pi.stderr).toBe(0);
}

function entryTypes(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const entry = JSON.parse(line) as { type: string; message?: { role: string } };
      return entry.type === 'message' ? `message:${entry.message?.role}` : entry.type;
    });
}

/** Arbor's snapshot of the session over a real WebSocket holds every entry; the file stays. */
async function expectSnapshotHoldsEveryEntry(file: string, sessionId: string): Promise<void> {
  const before = fs.readFileSync(file);
  const ids = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => (JSON.parse(line) as { id: string }).id);
  const client = await WsTestClient.open(server.wsUrl);
  try {
    await client.ok({ type: 'subscribe', sessionId });
    const snapshot = (await client.seen(
      (m) => m.type === 'snapshot' && m.sessionId === sessionId,
    )) as Snapshot;
    const tree = snapshot.tree;
    if (typeof tree === 'string') throw new Error(tree);
    expect(tree.map((node) => node.id)).toEqual(ids);
    expect(snapshot.leafId).toBe(ids.at(-1));
    for (const node of tree) {
      if (node.type === 'message' && node.role === 'system')
        expect(node.preview).toMatch(/^System/);
    }
  } finally {
    client.close();
  }
  expect(fs.readFileSync(file).equals(before), 'the file is as pi wrote it').toBe(true);
}

describe('sessions the real pi 1.6 CLI writes, read by Arbor', () => {
  it('print mode: tool calls, a 503 and its retry, a name, a custom id', async () => {
    const id = 'read.print_1';
    await printTurn(id, 'one\n/tool bash {"command":"echo from-bash"}', ['-n', 'print\nname']);
    await printTurn(id, 'two\n/tool read {"path":"a.txt"}');
    await printTurn(id, 'three\n/fail 503');
    await printTurn(id, 'four\n/tool ls {"path":"."}\n/tool read {"path":"a.txt"}');
    const file = sessionFileOf(id);
    const types = entryTypes(file);
    expect(types).toContain('message:system');
    expect(types).toContain('session_info');
    expect(types.filter((t) => t === 'message:toolResult').length).toBeGreaterThanOrEqual(4);
    // The failed attempt stays in the file; a context_edit keeps it out of the context.
    const lines = fs.readFileSync(file, 'utf8');
    expect(lines).toContain('"stopReason":"error"');
    expect(types).toContain('context_edit');

    const { pi, compared } = await expectSameAsPi16(file);
    expect(compared).toBe(types.length);
    expect(
      pi.context.messages.some(
        (m: { role: string; stopReason?: string }) =>
          m.role === 'assistant' && m.stopReason === 'error',
      ),
    ).toBe(false);
    await expectSnapshotHoldsEveryEntry(file, id);
  });

  it('RPC mode: labels and navigation with and without a summary (through an extension)', async () => {
    const id = 'read.tree-1';
    const rpc = new Pi16Rpc([...MODEL, '--session-id', id, '-e', TREE_EXTENSION], {
      cwd: server.workspacePath,
      agentDir: server.dataDir,
    });
    const users = (entries: RpcEntry[]) =>
      entries.filter((e) => e.type === 'message' && e.message?.role === 'user');
    try {
      await rpc.prompt('tree one');
      await rpc.prompt('tree two\n/tool read {"path":"a.txt"}');
      const first = users((await rpc.entries()).entries)[0]!;
      await rpc.slash(`/arbor-label ${first.id} the start`, (entries) =>
        entries.some(
          (e) => e.type === 'label' && e.targetId === first.id && e.label === 'the start',
        ),
      );
      await rpc.slash('/arbor-label leaf', (entries) =>
        entries.some((e) => e.type === 'label' && e.label === undefined),
      );
      // Back to the first answer without a summary, then a new branch.
      const answer = (await rpc.entries()).entries.find((e) => e.parentId === first.id)!;
      await rpc.slash(`/arbor-navigate ${answer.id}`, (_entries, leafId) => leafId === answer.id);
      await rpc.prompt('tree three, another branch');
      // Back again, leaving a summary of the branch that was left.
      await rpc.slash(`/arbor-navigate ${answer.id} summary`, (entries) =>
        entries.some((e) => e.type === 'branch_summary'),
      );
      await rpc.prompt('tree four, after the summary');
    } finally {
      await rpc.close();
    }
    const file = sessionFileOf(id);
    const types = entryTypes(file);
    expect(types).toContain('label');
    expect(types).toContain('branch_summary');
    await expectSameAsPi16(file);
    await expectSnapshotHoldsEveryEntry(file, id);
  });

  it('RPC mode: compaction, names, a retry, fork and clone', async () => {
    const id = 'read.rpc_1';
    const before = new Set(sessionFiles());
    const rpc = new Pi16Rpc([...MODEL, '--session-id', id], {
      cwd: server.workspacePath,
      agentDir: server.dataDir,
    });
    try {
      await rpc.prompt('rpc one\n/tool read {"path":"a.txt"}');
      await rpc.command({ type: 'set_session_name', name: 'rpc session' });
      await rpc.command({ type: 'bash', command: 'echo from-rpc-bash' });
      await rpc.prompt('rpc two\n/tool bash {"command":"echo two"}');
      await rpc.prompt('rpc three\n/fail 503');
      await rpc.command({ type: 'compact' });
      await rpc.prompt('rpc after compaction');
      const forkable = await rpc.command({ type: 'get_fork_messages' });
      const messages = (forkable.data as { messages: { entryId: string }[] }).messages;
      await rpc.command({ type: 'fork', entryId: messages[1]!.entryId });
      await rpc.prompt('in the fork');
      await rpc.command({ type: 'clone' });
      await rpc.prompt('in the clone');
    } finally {
      await rpc.close();
    }
    const file = sessionFileOf(id);
    const types = entryTypes(file);
    expect(types).toContain('compaction');
    expect(types).toContain('message:bashExecution');
    expect(types).toContain('context_edit');
    expect(types).toContain('message:system');
    expect(fs.readFileSync(file, 'utf8')).toContain('"systemMessage":{');
    const made = sessionFiles().filter((f) => !before.has(f));
    expect(made.length).toBe(3);
    for (const written of made) {
      const { pi } = await expectSameAsPi16(written);
      await expectSnapshotHoldsEveryEntry(written, pi.sessionId);
    }
  });
});
