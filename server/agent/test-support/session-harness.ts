import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentSessionEvent } from '../../../shared/agent-events.js';
import { startDemoModel, type RunningDemoModel } from '../../demo-model/demo-model-server.js';
import { DEMO_MODEL_ID } from '../../demo-model/demo-model-handler.js';
import { ModelCatalog } from '../../models/model-catalog.js';
import { SessionStore } from '../../store/session-store.js';
import type { AgentSession } from '../agent-session.js';
import { createAgentSession, type CreateAgentSessionOptions } from '../create-agent-session.js';

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

export async function startHarness(opts: { contextWindow?: number } = {}): Promise<Harness> {
  const demo = await startDemoModel({ port: 0, ...opts });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-agent-'));
  const workspace = path.join(root, 'ws');
  const sessionDir = path.join(root, 'sessions');
  fs.mkdirSync(workspace);
  fs.mkdirSync(sessionDir);
  const catalog = ModelCatalog.load({
    dataDir: root,
    demoBaseUrl: demo.baseUrl,
    ...(opts.contextWindow ? { demoContextWindow: opts.contextWindow } : {}),
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
        modelId: DEMO_MODEL_ID,
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
