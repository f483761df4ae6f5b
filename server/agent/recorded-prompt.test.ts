import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemMessage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import {
  currentSystemMessage,
  currentTools,
  systemMessageText,
} from '../../shared/system-prompt.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER } from '../demo-model/demo-model-handler.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { ModelCatalog, type ModelInfo } from '../models/model-catalog.js';
import { piAiStream } from '../models/pi-ai-stream.js';
import { SessionStore } from '../store/session-store.js';
import { PI16_FIXTURES } from '../store/test-support/pi16-oracle.js';
import type { StreamFn } from '../models/model-stream.js';
import { createAgentSession } from './create-agent-session.js';

/*
 * The request Arbor sends is the session's recorded prompt replayed (pi-ai's rules), not a prompt
 * held in memory: the prompt and tools are recorded before the first request, patched when they
 * differ from what the file replays to (a pi file), and sent as one leading prompt, or for a model
 * that takes them, with later system messages where they stand.
 */

interface WireRequest {
  messages: { role: string; content?: unknown }[];
  tools?: { function: { name: string; description?: string; parameters?: unknown } }[];
}

let demo: RunningDemoModel;
let root: string;
let workspace: string;
let sessionDir: string;
let catalog: ModelCatalog;
const wire: WireRequest[] = [];

beforeAll(async () => {
  demo = await startDemoModel({
    port: 0,
    onRequest: (route, body) => {
      if (route === '/chat/completions') wire.push(body as WireRequest);
    },
  });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-recorded-prompt-'));
  workspace = path.join(root, 'ws');
  sessionDir = path.join(root, 'sessions');
  fs.mkdirSync(workspace);
  fs.mkdirSync(sessionDir);
  catalog = ModelCatalog.load({ dataDir: root, demoBaseUrl: demo.baseUrl, env: {} });
});

afterAll(async () => {
  await demo?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function promptOnce(store: SessionStore, text: string, model?: ModelInfo) {
  const chosen = model ?? catalog.lookup(DEMO_MODEL_ID)!;
  // The stream function sees the model chosen for the test (e.g. one taking mid-conversation
  // system messages), so the wire shows how that model is sent the session.
  const streamFn: StreamFn = (request) => piAiStream({ ...request, model: chosen });
  const session = await createAgentSession({
    workspace,
    store,
    catalog,
    model: { provider: DEMO_PROVIDER, modelId: DEMO_MODEL_ID },
    toolPolicy: { bash: 'unsandboxed' },
    streamFn,
  });
  const sent = wire.length;
  try {
    await session.prompt(text);
  } finally {
    await session.dispose();
  }
  return wire[sent]!;
}

function entriesOf(file: string): SessionEntry[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry);
}

function systemMessages(file: string): SystemMessage[] {
  return entriesOf(file).flatMap((e) =>
    e.type === 'message' && e.message.role === 'system' ? [e.message] : [],
  );
}

/** The tools of a wire request, as declarations. */
function wireTools(request: WireRequest) {
  return (request.tools ?? []).map(({ function: f }) => ({
    name: f.name,
    description: f.description,
    parameters: f.parameters,
  }));
}

describe('the request is the recorded prompt, replayed', () => {
  it('records every section and tool before the first request, once, and sends exactly that', async () => {
    const store = SessionStore.create({ cwd: workspace, sessionDir });
    const file = store.file!;
    const first = await promptOnce(store, 'hello');
    const recorded = systemMessages(file);
    expect(recorded).toHaveLength(1);
    const [prompt] = recorded;
    expect(Object.keys(prompt!)).toEqual([
      'role',
      'content',
      'sections',
      'timestamp',
      'toolsAdded',
    ]);
    expect(Object.keys(prompt!.sections ?? {})).toEqual(['preamble', 'tools', 'rules', 'cwd']);
    expect(prompt!.sections?.cwd).toBe(`Current working directory: ${workspace}`);
    expect(first.messages[0]).toEqual({ role: 'system', content: systemMessageText(prompt!) });
    expect(first.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(wireTools(first)).toEqual(JSON.parse(JSON.stringify(currentTools(recorded))));

    // Nothing changed: the next prompt records no patch and sends the same prompt and tools.
    const second = await promptOnce(SessionStore.open(file), 'again');
    expect(systemMessages(file)).toHaveLength(1);
    expect(second.messages[0]).toEqual(first.messages[0]);
    expect(second.tools).toEqual(first.tools);
  });

  it('patches a prompt pi recorded (sections by name, tools removed and added) and sends the replay', async () => {
    const file = path.join(sessionDir, 'pi-written.jsonl');
    fs.copyFileSync(path.join(PI16_FIXTURES, 'print-tools.jsonl'), file);
    const piPrompt = systemMessages(file);
    const request = await promptOnce(SessionStore.open(file), 'over to Arbor');

    const all = systemMessages(file);
    expect(all).toHaveLength(piPrompt.length + 1);
    const patch = all.at(-1)!;
    // pi's "docs" section is gone; Arbor's sections replace pi's by name.
    expect(patch.sections).toMatchObject({ docs: null, preamble: expect.any(String) as unknown });
    expect(patch.toolsRemoved?.map((t) => t.name)).toContain('read');
    const replay = currentSystemMessage(all)!;
    expect(Object.keys(replay.sections ?? {})).toEqual(['preamble', 'tools', 'rules', 'cwd']);
    for (const [name, text] of Object.entries(replay.sections ?? {}))
      expect(text).toBe(patch.sections?.[name]);
    // One leading prompt (pi-ai's default for OpenAI-compatible hosts): the replay of them all.
    expect(request.messages.filter((m) => m.role === 'system')).toEqual([
      { role: 'system', content: systemMessageText(replay) },
    ]);
    expect(wireTools(request)).toEqual(JSON.parse(JSON.stringify(currentTools(all))));
    // The patch sits right before the new prompt, as pi 1.6 places it.
    const entries = entriesOf(file);
    const user = entries.at(-2)!;
    expect(user.type === 'message' && user.message.role).toBe('user');
    expect(entries.at(-3)).toMatchObject({ message: { role: 'system' } });
  });

  it('sends later system messages where they stand to a model that takes them', async () => {
    const file = path.join(sessionDir, 'pi-written-mid.jsonl');
    fs.copyFileSync(path.join(PI16_FIXTURES, 'print-tools.jsonl'), file);
    const piPrompt = systemMessages(file)[0]!;
    const model = {
      ...catalog.lookup(DEMO_MODEL_ID)!,
      compat: { supportsMidConvoSystemMessages: true },
    };
    const request = await promptOnce(SessionStore.open(file), 'over to Arbor', model);

    const system = request.messages.filter((m) => m.role === 'system');
    expect(system).toHaveLength(2);
    // The first as the prompt pi recorded; the patch framed by name (pi-ai's rendering).
    expect(request.messages[0]).toEqual({ role: 'system', content: systemMessageText(piPrompt) });
    const update = String(system[1]!.content);
    expect(update).toContain('Removed system prompt section "docs".');
    expect(update).toContain('Updated system prompt section "preamble":\n\n');
    // Where it stands: right before the new prompt.
    const at = request.messages.indexOf(system[1]!);
    expect(request.messages[at + 1]).toMatchObject({ role: 'user' });
    expect(wireTools(request)).toEqual(
      JSON.parse(JSON.stringify(currentTools(systemMessages(file)))),
    );
  });
});
