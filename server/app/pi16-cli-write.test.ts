import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { currentSystemMessage } from '../../shared/system-prompt.js';
import type { AgentSession } from '../agent/agent-session.js';
import { toProviderMessages } from '../models/convert-to-llm.js';
import { createAgentSession } from '../agent/create-agent-session.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER } from '../demo-model/demo-model-handler.js';
import type { ModelRef } from '../../shared/model-ref.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { ModelCatalog, type ModelInfo } from '../models/model-catalog.js';
import { piAiStream } from '../models/pi-ai-stream.js';
import { SessionStore } from '../store/session-store.js';
import { expectSameAsPi16 } from '../store/test-support/pi16-compare.js';
import { runPi16Cli } from '../store/test-support/pi16-oracle.js';
import { Pi16Rpc } from '../store/test-support/pi16-rpc.js';

/*
 * The reverse direction: Arbor writes sessions (runs with tools, a retried failure, a name with a
 * line break, navigation with and without a summary, compaction, fork, clone), then the real pi
 * 1.6 CLI continues each file (print mode and RPC mode). At every entry, before and after pi
 * wrote, Arbor's context equals pi 1.6's; the request pi sends equals the request Arbor builds
 * from the same context, so pi continues with exactly Arbor's context; and Arbor continuing
 * after pi writes its own prompt back as a patch and sends the replay.
 */

interface SeenRequest {
  messages: unknown[];
  tools?: { function: { name: string; description?: string; parameters?: unknown } }[];
}

let demo: RunningDemoModel;
let root: string;
let workspace: string;
let sessionDir: string;
let agentDir: string;
let catalog: ModelCatalog;
let model: ModelInfo;
const requests: SeenRequest[] = [];
const open: AgentSession[] = [];

beforeAll(async () => {
  demo = await startDemoModel({
    port: 0,
    onRequest: (route, body) => {
      if (route === '/chat/completions') requests.push(body as SeenRequest);
    },
  });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi16-write-'));
  workspace = path.join(root, 'ws');
  sessionDir = path.join(root, 'sessions');
  agentDir = path.join(root, 'pi-agent');
  for (const dir of [workspace, sessionDir, agentDir]) fs.mkdirSync(dir);
  fs.writeFileSync(path.join(workspace, 'a.txt'), 'alpha\nbeta\n');
  catalog = ModelCatalog.load({ dataDir: root, demoBaseUrl: demo.baseUrl, env: {} });
  model = catalog.lookup(DEMO_MODEL_ID)!;
  fs.writeFileSync(
    path.join(agentDir, 'models.json'),
    JSON.stringify({
      providers: {
        [model.provider]: {
          baseUrl: demo.baseUrl,
          api: 'openai-completions',
          apiKey: 'demo',
          models: [{ id: DEMO_MODEL_ID, contextWindow: 64_000, maxTokens: 4096 }],
        },
      },
    }),
  );
  fs.writeFileSync(
    path.join(agentDir, 'settings.json'),
    JSON.stringify({
      retry: { enabled: true, baseDelayMs: 10 },
      compaction: { enabled: true, keepRecentTokens: 40 },
    }),
  );
});

afterAll(async () => {
  for (const session of open) await session.dispose().catch(() => {});
  await demo?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function arborSession(
  store?: SessionStore,
  on: { catalog: ModelCatalog; model: ModelRef } = {
    catalog,
    model: { provider: DEMO_PROVIDER, modelId: DEMO_MODEL_ID },
  },
): Promise<AgentSession> {
  const session = await createAgentSession({
    workspace,
    store: store ?? SessionStore.create({ cwd: workspace, sessionDir }),
    catalog: on.catalog,
    model: on.model,
    toolPolicy: { bash: 'unsandboxed' },
    settings: { retry: { baseDelayMs: 5, maxDelayMs: 1000 } },
  });
  open.push(session);
  return session;
}

async function closeSession(session: AgentSession): Promise<string> {
  const file = session.store.file!;
  await session.dispose();
  return file;
}

function entriesOf(file: string): SessionEntry[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry);
}

/**
 * The chat-completions request Arbor sends for the context at `leafId`: made by Arbor's stream
 * function (pi-ai) to the demo model, and taken as the demo model saw it.
 */
async function arborRequest(
  file: string,
  leafId: string,
  to: ModelInfo = model,
): Promise<SeenRequest> {
  const store = SessionStore.openReadOnly(file);
  let messages: AgentMessage[];
  try {
    messages = store.buildSessionContext(leafId).messages;
  } finally {
    store.close();
  }
  const sent = requests.length;
  const stream = piAiStream({
    model: to,
    auth: await catalog.requestAuth(model),
    systemPrompt: '',
    tools: [],
    messages: toProviderMessages(messages),
    thinkingLevel: 'off',
    signal: new AbortController().signal,
  });
  for (let next = await stream.next(); !next.done; next = await stream.next());
  expect(requests.length, 'the demo model saw the request').toBe(sent + 1);
  return requests[sent]!;
}

/** What of a request both sides must agree on: every message, and each tool's declaration. */
function requestShape(request: SeenRequest) {
  return JSON.parse(
    JSON.stringify({
      messages: request.messages,
      tools: (request.tools ?? []).map(({ function: f }) => ({
        name: f.name,
        description: f.description,
        parameters: f.parameters,
      })),
    }),
  ) as unknown;
}

/**
 * Runs pi 1.6 on `file` with `prompt` (print mode), then holds that pi's first request is the one
 * Arbor builds from the same context, and that Arbor reads the file exactly as pi does.
 */
async function piContinues(file: string, prompt: string): Promise<void> {
  const before = entriesOf(file).length;
  const sent = requests.length;
  const pi = await runPi16Cli(
    ['-p', '--provider', model.provider, '--model', DEMO_MODEL_ID, '--session', file, prompt],
    { cwd: workspace, agentDir },
  );
  expect(pi.code, pi.stderr).toBe(0);
  const added = entriesOf(file).slice(before);
  const user = added.find((e) => e.type === 'message' && e.message.role === 'user');
  expect(user, 'pi appended the prompt').toBeDefined();
  expect(requestShape(requests[sent]!)).toEqual(requestShape(await arborRequest(file, user!.id)));
  await expectSameAsPi16(file);
}

/** Arbor continues after pi: its prompt goes back in as a patch, and it sends the replay. */
async function arborContinues(file: string, prompt: string): Promise<void> {
  const session = await arborSession(SessionStore.open(file));
  const sent = requests.length;
  await session.prompt(prompt);
  await closeSession(session);
  const entries = entriesOf(file);
  const user = entries.findLast((e) => e.type === 'message' && e.message.role === 'user')!;
  const patch = entries[entries.indexOf(user) - 1];
  expect(patch?.type === 'message' && patch.message.role, 'Arbor re-records its prompt').toBe(
    'system',
  );
  expect(requestShape(requests[sent]!)).toEqual(requestShape(await arborRequest(file, user.id)));
  await expectSameAsPi16(file);
}

function types(file: string): string[] {
  return entriesOf(file).map((e) => (e.type === 'message' ? `message:${e.message.role}` : e.type));
}

describe('pi 1.6 continues the files Arbor writes', () => {
  it('runs with tools, a retried failure and a name: pi continues, then Arbor again', async () => {
    const session = await arborSession();
    await session.prompt('one\n/tool read {"path":"a.txt"}');
    session.setSessionName('arbor\nname');
    await session.prompt('two\n/fail 503');
    await session.prompt('three\n/tool bash {"command":"echo from-arbor"}');
    const file = await closeSession(session);

    const entries = entriesOf(file);
    // What pi 1.6 writes: the prompt and tools before the first request, once.
    const system = entries.filter((e) => e.type === 'message' && e.message.role === 'system');
    expect(system).toHaveLength(1);
    expect(entries.indexOf(system[0]!)).toBe(
      entries.findIndex((e) => e.type === 'message' && e.message.role === 'user') - 1,
    );
    expect(entries.find((e) => e.type === 'session_info')).toMatchObject({ name: 'arbor name' });
    const failed = entries.find(
      (e) =>
        e.type === 'message' && e.message.role === 'assistant' && e.message.stopReason === 'error',
    )!;
    expect(entries.find((e) => e.type === 'context_edit')).toMatchObject({
      targetId: failed.id,
      replacement: null,
    });
    await expectSameAsPi16(file);

    await piContinues(file, 'four from pi\n/tool read {"path":"a.txt"}');
    await arborContinues(file, 'five from Arbor\n/tool ls {"path":"."}');
    await piContinues(file, 'six from pi');
  });

  it('navigation with and without a summary, and compaction with its checkpoint', async () => {
    const session = await arborSession();
    await session.prompt('nav one');
    await session.prompt('nav two\n/tool read {"path":"a.txt"}');
    const tree = session.store.getTree();
    const firstAnswer = tree.find((n) => n.role === 'assistant')!;
    await session.navigateTree(firstAnswer.id);
    await session.prompt('nav three, another branch');
    await session.navigateTree(firstAnswer.id, { summarize: true });
    await session.prompt('nav four, after the summary');
    await session.prompt('nav five');
    await session.compact();
    await session.prompt('nav six, after compaction');
    const file = await closeSession(session);

    const entries = entriesOf(file);
    const summary = entries.find((e) => e.type === 'branch_summary');
    // pi 1.6's fromId: the leaf that was left, the end of the branch the summary tells of.
    expect(summary?.type === 'branch_summary' && summary.fromId).not.toBe(summary?.parentId);
    const compaction = entries.find((e) => e.type === 'compaction');
    expect(compaction?.type === 'compaction' && compaction.systemMessage).toMatchObject({
      role: 'system',
      sections: { preamble: expect.any(String) as unknown },
    });
    expect(types(file)).toContain('custom'); // Arbor's leaf marker, which pi takes as its leaf
    await expectSameAsPi16(file);

    await piContinues(file, 'nav seven from pi\n/tool read {"path":"a.txt"}');
    await arborContinues(file, 'nav eight from Arbor');
  });

  it('fork and clone of an Arbor session continue in pi', async () => {
    const session = await arborSession();
    await session.prompt('fork one\n/tool read {"path":"a.txt"}');
    await session.prompt('fork two');
    const users = session.store.getTree().filter((n) => n.role === 'user');
    const forked = session.store.forkFrom(users[1]!.id, sessionDir).store;
    const cloned = session.store.cloneTo(sessionDir);
    const forkFile = forked.file!;
    const cloneFile = cloned.file!;
    forked.close();
    cloned.close();
    await closeSession(session);
    for (const file of [forkFile, cloneFile]) {
      // The copied path holds Arbor's prompt, so pi resumes with Arbor's tools declared.
      expect(types(file)[2]).toBe('message:system');
      await expectSameAsPi16(file);
      await piContinues(file, 'continued by pi\n/tool read {"path":"a.txt"}');
    }
  });

  it('RPC mode: pi compacts an Arbor session, and Arbor reads and continues it', async () => {
    const session = await arborSession();
    await session.prompt('rpc one\n/tool read {"path":"a.txt"}');
    await session.prompt('rpc two');
    await session.compact();
    await session.prompt('rpc three');
    const file = await closeSession(session);

    const rpc = new Pi16Rpc(
      ['--provider', model.provider, '--model', DEMO_MODEL_ID, '--session', file],
      {
        cwd: workspace,
        agentDir,
      },
    );
    try {
      await rpc.prompt('rpc four from pi\n/tool bash {"command":"echo from-pi"}');
      await rpc.command({ type: 'compact' });
      await rpc.prompt('rpc five from pi');
    } finally {
      await rpc.close();
    }
    const compactions = entriesOf(file).filter((e) => e.type === 'compaction');
    expect(compactions).toHaveLength(2);
    // pi's checkpoint holds the prompt in force at its boundary: pi's, patched over Arbor's.
    const store = SessionStore.openReadOnly(file);
    try {
      const last = compactions[1]!;
      expect(last.type === 'compaction' && last.systemMessage).toEqual(
        expect.objectContaining({ role: 'system' }),
      );
      expect(
        currentSystemMessage(store.buildSessionContext(last.parentId).messages)?.sections,
      ).toEqual(last.type === 'compaction' ? last.systemMessage?.sections : undefined);
    } finally {
      store.close();
    }
    await expectSameAsPi16(file);
    await arborContinues(file, 'rpc six from Arbor');
  });

  it('a model that takes mid-conversation system messages gets them from Arbor as from pi', async () => {
    // pi's own models.json form with pi-ai's compat flag, read by Arbor and by pi alike.
    const midDir = path.join(root, 'mid-agent');
    fs.mkdirSync(midDir);
    fs.writeFileSync(
      path.join(midDir, 'models.json'),
      JSON.stringify({
        providers: {
          midconvo: {
            baseUrl: demo.baseUrl,
            api: 'openai-completions',
            apiKey: 'demo',
            compat: { supportsMidConvoSystemMessages: true },
            models: [{ id: 'demo-mid', contextWindow: 64_000, maxTokens: 4096 }],
          },
        },
      }),
    );
    const midCatalog = ModelCatalog.load({ dataDir: midDir, demoBaseUrl: demo.baseUrl, env: {} });
    const mid = midCatalog.lookup('demo-mid')!;
    expect(mid.compat?.supportsMidConvoSystemMessages).toBe(true);

    const systemCount = (request: SeenRequest) =>
      request.messages.filter((m) => (m as { role: string }).role === 'system').length;
    const lastUser = (file: string) =>
      entriesOf(file).findLast((e) => e.type === 'message' && e.message.role === 'user')!;
    const arborTurn = async (store: SessionStore, text: string) => {
      const session = await arborSession(store, {
        catalog: midCatalog,
        model: { provider: mid.provider, modelId: mid.id },
      });
      const sent = requests.length;
      await session.prompt(text);
      const file = await closeSession(session);
      expect(requestShape(requests[sent]!)).toEqual(
        requestShape(await arborRequest(file, lastUser(file).id, mid)),
      );
      return { file, request: requests[sent]! };
    };

    // Arbor starts it: one system message, the prompt.
    const { file, request: first } = await arborTurn(
      SessionStore.create({ cwd: workspace, sessionDir }),
      'Arbor on a mid-conversation model',
    );
    expect(systemCount(first)).toBe(1);
    // pi continues: its patch to its own prompt goes where it stands, as Arbor builds it.
    const sent = requests.length;
    const pi = await runPi16Cli(
      ['-p', '--provider', 'midconvo', '--model', 'demo-mid', '--session', file, 'pi again'],
      { cwd: workspace, agentDir: midDir },
    );
    expect(pi.code, pi.stderr).toBe(0);
    expect(systemCount(requests[sent]!)).toBe(2);
    expect(requestShape(requests[sent]!)).toEqual(
      requestShape(await arborRequest(file, lastUser(file).id, mid)),
    );
    // Arbor again: its patch back, the three where they stand.
    const { request: third } = await arborTurn(SessionStore.open(file), 'Arbor once more');
    expect(systemCount(third)).toBe(3);
    await expectSameAsPi16(file);
  });
});
