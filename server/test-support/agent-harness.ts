import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { AgentSessionEvent } from '../../shared/agent-events.js';
import { contentText } from '../../shared/messages.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER } from '../demo-model/demo-model-handler.js';
import { ModelCatalog } from '../models/model-catalog.js';
import { SessionStore } from '../store/session-store.js';
import type { AgentSession } from '../agent/agent-session.js';
import {
  createAgentSession,
  type CreateAgentSessionOptions,
} from '../agent/create-agent-session.js';
import type { StreamFn } from '../models/model-stream.js';
import { createArborCompaction } from '../compaction/agent-compaction.js';
import { piAiStream } from '../models/pi-ai-stream.js';
import { readWithPi16 } from '../store/test-support/pi16-oracle.js';

/*
 * The one agent harness of the tests: a demo model, a temporary workspace and data folder, and
 * AgentSessions over real files; `openCompactionHarness` adds Arbor's compaction and records
 * every request.
 */

/** A demo model, a temp workspace and data dir, and sessions over real files. */
export interface Harness {
  demo: RunningDemoModel;
  catalog: ModelCatalog;
  root: string;
  workspace: string;
  sessionDir: string;
  open(overrides?: Partial<CreateAgentSessionOptions>): Promise<Recorded>;
  close(): Promise<void>;
}

export interface Recorded {
  session: AgentSession;
  events: AgentSessionEvent[];
  /** Resolves at the first event matching the predicate (already seen ones count). */
  waitFor(predicate: (event: AgentSessionEvent) => boolean): Promise<AgentSessionEvent>;
}

/** What the demo model and the workspace are like; every part optional. */
export interface HarnessOptions {
  /** The window the demo server enforces. */
  contextWindow?: number;
  /** The window Arbor believes the model has (defaults to the server's). */
  catalogWindow?: number;
  chunkDelayMs?: number;
  /** The workspace's `.arbor/settings.json`. */
  workspaceSettings?: unknown;
  /** The temporary folder's prefix. */
  prefix?: string;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const demo = await startDemoModel({
    port: 0,
    ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
    ...(opts.chunkDelayMs !== undefined ? { chunkDelayMs: opts.chunkDelayMs } : {}),
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), opts.prefix ?? 'arbor-agent-'));
  const workspace = path.join(root, 'ws');
  const sessionDir = path.join(root, 'sessions');
  fs.mkdirSync(workspace);
  fs.mkdirSync(sessionDir);
  if (opts.workspaceSettings !== undefined) {
    fs.mkdirSync(path.join(workspace, '.arbor'));
    fs.writeFileSync(
      path.join(workspace, '.arbor', 'settings.json'),
      JSON.stringify(opts.workspaceSettings),
    );
  }
  const window = opts.catalogWindow ?? opts.contextWindow;
  const catalog = ModelCatalog.load({
    dataDir: root,
    demoBaseUrl: demo.baseUrl,
    ...(window ? { demoContextWindow: window } : {}),
    env: {},
  });
  const sessions: AgentSession[] = [];
  return {
    demo,
    catalog,
    root,
    workspace,
    sessionDir,
    async open(overrides = {}) {
      const session = await createAgentSession({
        workspace,
        store: overrides.store ?? SessionStore.create({ cwd: workspace, sessionDir }),
        catalog,
        model: { provider: DEMO_PROVIDER, modelId: DEMO_MODEL_ID },
        toolPolicy: { bash: 'unsandboxed' },
        settings: { retry: { baseDelayMs: 5, maxDelayMs: 1000 } },
        ...overrides,
      });
      sessions.push(session);
      return record(session);
    },
    async close() {
      for (const session of sessions) await session.dispose().catch(() => {});
      await demo.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export function record(session: AgentSession): Recorded {
  const events: AgentSessionEvent[] = [];
  const waiters: {
    predicate: (e: AgentSessionEvent) => boolean;
    resolve: (e: AgentSessionEvent) => void;
  }[] = [];
  session.subscribe((event) => {
    events.push(event);
    for (const waiter of [...waiters])
      if (waiter.predicate(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
  });
  return {
    session,
    events,
    waitFor(predicate) {
      const seen = events.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

/** The event types in order, with message roles: `message_end:assistant`. */
export function eventTrace(events: AgentSessionEvent[]): string[] {
  return events
    .filter((e) => e.type !== 'message_update' && e.type !== 'tool_execution_update')
    .map((e) =>
      e.type === 'message_start' || e.type === 'message_end'
        ? `${e.type}:${e.message.role}`
        : e.type,
    );
}

/*
 * The same harness with Arbor's compaction, over real files and the demo model through the real
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
  const harness = await startHarness({
    contextWindow: opts.serverWindow,
    ...(opts.catalogWindow !== undefined ? { catalogWindow: opts.catalogWindow } : {}),
    chunkDelayMs: opts.chunkDelayMs ?? 0,
    workspaceSettings: opts.workspaceSettings,
    prefix: 'arbor-compaction-agent-',
  });
  const { workspace, sessionDir, demo } = harness;
  const calls: RecordedCall[] = [];
  const summaryPrompts: string[] = [];
  const streamFn: StreamFn = async function* (request) {
    // The agent's requests carry the session's recorded prompt and tools as system messages.
    const agent = request.messages.some((m) => m.role === 'system');
    if (!agent) {
      const first = request.messages[0];
      summaryPrompts.push(first?.role === 'user' ? contentText(first.content) : '');
    }
    const inner = piAiStream(request);
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
  const store = opts.sessionFile
    ? SessionStore.open(opts.sessionFile(sessionDir, workspace))
    : SessionStore.create({ cwd: workspace, sessionDir });
  opts.seed?.(store);
  const { compactor, contextSteps } = createArborCompaction(opts.settings);
  const { session } = await harness.open({
    store,
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
    close: () => harness.close(),
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
