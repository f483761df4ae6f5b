import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { AgentSessionEvent } from '../../../shared/agent-events.js';
import { contentText } from '../../../shared/messages.js';
import type { AgentSession } from '../../agent/agent-session.js';
import type { StreamFn } from '../../models/model-stream.js';
import { createAgentSession } from '../../agent/create-agent-session.js';
import { DEMO_MODEL_ID } from '../../demo-model/demo-model-handler.js';
import { startDemoModel, type RunningDemoModel } from '../../demo-model/demo-model-server.js';
import { ModelCatalog } from '../../models/model-catalog.js';
import { openaiStream } from '../../models/openai-stream.js';
import { SessionStore } from '../../store/session-store.js';
import { readWithPi16 } from '../../store/test-support/pi16-oracle.js';
import { createArborCompaction } from '../agent-compaction.js';

/*
 * A live AgentSession with Arbor's compaction, over real files and the demo model through the real
 * openai client. The stream function is the production one, wrapped only to record what every
 * request cost (agent calls and summary calls alike).
 */

export interface RecordedCall {
  /** Prompt tokens the model counted (input + cached). */
  promptTokens: number;
  /** A summary request (no tools) or an agent call. */
  kind: 'summary' | 'agent';
  stopReason: string;
  errorMessage?: string;
}

export interface CompactionHarness {
  session: AgentSession;
  store: SessionStore;
  events: AgentSessionEvent[];
  calls: RecordedCall[];
  /** The text of every summary request, in order (what the summarising model was asked). */
  summaryPrompts: string[];
  workspace: string;
  demo: RunningDemoModel;
  close(): Promise<void>;
}

export async function openCompactionHarness(opts: {
  /** The window the demo server enforces. */
  serverWindow: number;
  /** The window Arbor believes the model has (defaults to the server's). */
  catalogWindow?: number;
  chunkDelayMs?: number;
  settings?: unknown;
  workspaceSettings?: unknown;
  /** Writes history into the session file before the session opens it. */
  seed?: (store: SessionStore) => void;
  /** Writes a whole session file (JSONL) into `dir`, returning its path, to open instead. */
  sessionFile?: (dir: string, cwd: string) => string;
}): Promise<CompactionHarness> {
  const demo = await startDemoModel({
    port: 0,
    contextWindow: opts.serverWindow,
    chunkDelayMs: opts.chunkDelayMs ?? 0,
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-compaction-agent-'));
  const workspace = path.join(root, 'ws');
  fs.mkdirSync(workspace);
  if (opts.workspaceSettings !== undefined) {
    fs.mkdirSync(path.join(workspace, '.arbor'));
    fs.writeFileSync(
      path.join(workspace, '.arbor', 'settings.json'),
      JSON.stringify(opts.workspaceSettings),
    );
  }
  const catalog = ModelCatalog.load({
    dataDir: root,
    demoBaseUrl: demo.baseUrl,
    demoContextWindow: opts.catalogWindow ?? opts.serverWindow,
    env: {},
  });
  const calls: RecordedCall[] = [];
  const summaryPrompts: string[] = [];
  const streamFn: StreamFn = async function* (request) {
    // The agent's requests carry the session's recorded prompt and tools as system messages.
    const agent = request.messages.some((m) => m.role === 'system');
    if (!agent) {
      const first = request.messages[0];
      summaryPrompts.push(first?.role === 'user' ? contentText(first.content) : '');
    }
    const inner = openaiStream(request);
    for (;;) {
      const next = await inner.next();
      if (next.done) {
        const { usage, stopReason, errorMessage } = next.value.message;
        calls.push({
          promptTokens: usage.input + usage.cacheRead + usage.cacheWrite,
          kind: agent ? 'agent' : 'summary',
          stopReason,
          ...(errorMessage ? { errorMessage } : {}),
        });
        return next.value;
      }
      yield next.value;
    }
  };
  const sessionDir = path.join(root, 'sessions');
  let store: SessionStore;
  if (opts.sessionFile) {
    fs.mkdirSync(sessionDir);
    store = SessionStore.open(opts.sessionFile(sessionDir, workspace));
  } else {
    store = SessionStore.create({ cwd: workspace, sessionDir });
  }
  opts.seed?.(store);
  const { compactor, contextSteps } = createArborCompaction(opts.settings);
  const session = await createAgentSession({
    workspace,
    store,
    catalog,
    modelId: DEMO_MODEL_ID,
    toolPolicy: { bash: 'off' },
    settings: { retry: { baseDelayMs: 5, maxDelayMs: 100 } },
    streamFn,
    compactor,
    contextSteps,
  });
  const events: AgentSessionEvent[] = [];
  session.subscribe((event) => {
    if (event.type !== 'message_update') events.push(event);
  });
  return {
    session,
    store,
    events,
    calls,
    summaryPrompts,
    workspace,
    demo,
    async close() {
      await session.dispose().catch(() => {});
      await demo.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * pi's own reading of the file gives the context Arbor builds: pi 1.6, since Arbor writes its
 * dialect (system messages, checkpoints, context edits), which pi 0.73 reads otherwise.
 */
export async function expectPiAgrees(harness: CompactionHarness): Promise<void> {
  const pi = await readWithPi16(harness.store.file!);
  expect(pi.context).toEqual(JSON.parse(JSON.stringify(harness.store.buildSessionContext())));
}
