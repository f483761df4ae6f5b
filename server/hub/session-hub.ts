import type { FastifyBaseLogger } from 'fastify';
import type { ModelSummary } from '../../shared/protocol.js';
import type { AgentSession } from '../agent/agent-session.js';
import type { ModelCatalog, ModelInfo } from '../models/model-catalog.js';
import type { ModelPair, RecentModels } from '../models/recent-models.js';
import { ArborError } from '../errors/error-catalog.js';
import type { Workspace } from '../config/workspaces.js';
import { supportedThinkingLevels, supportsImages } from '../models/request-capabilities.js';
import { LiveSession, type SessionClosedReason } from './live-session.js';
import type { SessionFactory } from './session-factory.js';
import type { SessionLocator } from '../config/session-locator.js';

/*
 * The open sessions of the server: at most one LiveSession (one AgentSession, one file lock) per
 * session id, however many clients watch it. Sessions nobody watches and that are not running are
 * closed after `idleSessionMs`.
 */

export interface SessionHubOptions {
  locator: SessionLocator;
  catalog: () => ModelCatalog;
  /** Builds the AgentSessions (server/app/session-factory.ts). */
  sessions: SessionFactory;
  coalesceMs: number;
  replayEvents: number;
  idleSessionMs: number;
  log: FastifyBaseLogger;
  /** Each user's recently chosen models; absent, none are remembered. */
  recentModels?: RecentModels;
}

export class SessionHub {
  private readonly live = new Map<string, LiveSession>();
  private readonly opening = new Map<string, Promise<LiveSession>>();
  /** Sessions being disposed: their file stays locked until it is closed. */
  private readonly closing = new Map<string, Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;
  private offered: { catalog: ModelCatalog; version: string; models: ModelSummary[] } | undefined;

  constructor(private readonly opts: SessionHubOptions) {
    const every = Math.max(1000, Math.min(opts.idleSessionMs / 4, 60_000));
    this.sweeper = setInterval(() => void this.closeIdle(), every);
    this.sweeper.unref();
  }

  get locator(): SessionLocator {
    return this.opts.locator;
  }

  /**
   * The models every snapshot offers (ModelCatalog.offered), made again only when the catalog or
   * its keys changed: with a few keys set they are hundreds, asked for on every subscribe.
   */
  models(): ModelSummary[] {
    const catalog = this.opts.catalog();
    const version = catalog.keysVersion();
    const cached = this.offered;
    if (cached?.catalog === catalog && cached.version === version) return cached.models;
    const models = catalog.offered().map((model) => summaryOf(catalog, model));
    this.offered = { catalog, version, models };
    return models;
  }

  /** Models in use matching `query`, from the whole catalog (ModelCatalog.search). */
  searchModels(query: string, limit: number): { models: ModelSummary[]; total: number } {
    const catalog = this.opts.catalog();
    const found = catalog.search(query, limit);
    return { models: found.models.map((model) => summaryOf(catalog, model)), total: found.total };
  }

  /** Live sessions read models and keys from the server's catalog as it is now. */
  catalogChanged(): void {
    const catalog = this.opts.catalog();
    for (const live of this.live.values()) live.agent.useCatalog(catalog);
  }

  /** Remembers that `user` chose a model, for their picker's "Recent" group. */
  modelChosen(user: string, pair: ModelPair): void {
    this.opts.recentModels?.chose(user, pair).catch((error: unknown) => {
      this.opts.log.warn({ err: error }, 'could not remember a recently chosen model');
    });
  }

  /** `user`'s recent models that are still in use here, newest first. */
  recentModels(user: string): ModelSummary[] {
    const catalog = this.opts.catalog();
    return (this.opts.recentModels?.of(user) ?? []).flatMap(({ provider, modelId }) => {
      const model = catalog.get(provider, modelId);
      return model && catalog.enabled(model) ? [summaryOf(catalog, model)] : [];
    });
  }

  /** Whether a session may be moved to this model: one the catalog knows and has in use. */
  mayUseModel(provider: string, modelId: string): boolean {
    const catalog = this.opts.catalog();
    const model = catalog.get(provider, modelId);
    return model !== undefined && catalog.enabled(model);
  }

  get(sessionId: string): LiveSession | undefined {
    return this.live.get(sessionId);
  }

  liveSessions(): LiveSession[] {
    return [...this.live.values()];
  }

  /** The open session with this id, opening its file when needed; not_found when it is unknown. */
  async open(sessionId: string): Promise<LiveSession> {
    this.assertOpen();
    const existing = this.live.get(sessionId);
    // A session only read so far whose file another program changed is read again.
    if (existing && existing.agent.view.access.stale && !existing.isBusy())
      await this.dispose(existing);
    else if (existing) return existing;
    const pending = this.opening.get(sessionId);
    if (pending) return pending;
    const location = this.opts.locator.locate(sessionId);
    if (!location) throw new ArborError('not_found', `No session ${sessionId}.`);
    const promise = (async () => {
      // A session closed a moment ago still holds its file's lock until its disposal ends.
      await this.closing.get(sessionId);
      return this.attach(
        await this.opts.sessions.open(location.file, location.workspace),
        location.workspace,
      );
    })();
    this.opening.set(sessionId, promise);
    try {
      return await promise;
    } finally {
      this.opening.delete(sessionId);
    }
  }

  /** A new, empty session in the workspace. */
  async create(workspace: Workspace): Promise<LiveSession> {
    this.assertOpen();
    return this.attach(await this.opts.sessions.create(workspace), workspace);
  }

  /** A new session holding the path to the parent of user message `entryId`; see SessionStore.forkFrom. */
  async fork(source: LiveSession, entryId: string): Promise<{ live: LiveSession; text: string }> {
    this.assertOpen();
    const { agent, text } = await this.opts.sessions.fork(source.agent, entryId, source.workspace);
    return { live: await this.attach(agent, source.workspace), text };
  }

  /** A new session holding the active path of `source`. */
  async clone(source: LiveSession): Promise<LiveSession> {
    this.assertOpen();
    const agent = await this.opts.sessions.clone(source.agent, source.workspace);
    return this.attach(agent, source.workspace);
  }

  /** Disposes an open session (aborting a run, persisting); a no-op when it is not open. */
  async close(sessionId: string, reason: SessionClosedReason): Promise<void> {
    const pending = this.opening.get(sessionId);
    if (pending) await pending.catch(() => undefined);
    const live = this.live.get(sessionId);
    if (!live) return;
    await this.dispose(live, reason);
  }

  /**
   * Closes every session: runs are aborted and persisted, files closed. Subscribers are not told
   * their sessions closed: nothing happened to the sessions. Their connections are closed next
   * with 1001 (build-app.ts), which tells a client to come back and resume them.
   */
  async shutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.opening.values()]);
    const sessions = [...this.live.values()];
    this.live.clear();
    const results = await Promise.allSettled(sessions.map((live) => live.dispose()));
    for (const result of results) {
      if (result.status === 'rejected') {
        this.opts.log.error({ err: result.reason }, 'a session did not close cleanly');
      }
    }
  }

  /** Closes sessions with no subscriber and no run, idle for longer than `idleSessionMs`. */
  async closeIdle(now: number = performance.now()): Promise<void> {
    for (const live of [...this.live.values()]) {
      if (
        live.subscriberCount === 0 &&
        !live.isBusy() &&
        now - live.lastActivity >= this.opts.idleSessionMs
      ) {
        await this.dispose(live).catch((error: unknown) => {
          this.opts.log.error({ err: error, sessionId: live.sessionId }, 'idle close failed');
        });
      }
    }
  }

  /** Takes the session out of the open ones and disposes it; reopening waits for the end. */
  private async dispose(live: LiveSession, reason?: SessionClosedReason): Promise<void> {
    this.live.delete(live.sessionId);
    const disposing = live.dispose(reason);
    const settled = disposing.then(
      () => undefined,
      () => undefined,
    );
    this.closing.set(live.sessionId, settled);
    try {
      await disposing;
    } finally {
      if (this.closing.get(live.sessionId) === settled) this.closing.delete(live.sessionId);
    }
  }

  private async attach(agent: AgentSession, workspace: Workspace): Promise<LiveSession> {
    const live = new LiveSession({
      agent,
      workspace,
      coalesceMs: this.opts.coalesceMs,
      replayEvents: this.opts.replayEvents,
    });
    const file = agent.view.file;
    if (file) this.opts.locator.register(live.sessionId, file, workspace);
    this.live.set(live.sessionId, live);
    return live;
  }

  private assertOpen(): void {
    if (this.closed) throw new ArborError('unavailable', 'The server is shutting down.');
  }
}

/** A model as a page sees it: no key, no key variable, only whether one is set and why not. */
function summaryOf(catalog: ModelCatalog, model: ModelInfo): ModelSummary {
  const noKey = catalog.missingKeyReason(model);
  return {
    id: model.id,
    name: model.name,
    provider: model.provider,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    reasoning: model.reasoning,
    thinkingLevels: supportedThinkingLevels(model),
    images: supportsImages(model),
    price: { input: model.cost.input, output: model.cost.output },
    ...(model.demo ? { demo: true } : {}),
    ...(noKey ? { noKey } : {}),
  };
}
