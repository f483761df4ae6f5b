import type { FastifyBaseLogger } from 'fastify';
import type { AgentSession } from '../agent/agent-session.js';
import { createAgentSession } from '../agent/create-agent-session.js';
import { createArborCompaction } from '../compaction/agent-compaction.js';
import type { Workspace } from '../config/workspaces.js';
import { ArborError } from '../errors/error-catalog.js';
import type { SessionFactory } from '../hub/session-factory.js';
import type { ModelCatalog } from '../models/model-catalog.js';
import { NotASessionFileError, SessionStore } from '../store/session-store.js';
import type { ToolPolicy } from '../tools/tool-policy.js';
import { sessionResources } from './session-resources.js';

/*
 * The composition root of a session: the one place that puts a store, the models, the tools and
 * compaction together into an AgentSession, for the hub to serve.
 */

export interface SessionFactoryOptions {
  catalog: () => ModelCatalog;
  toolPolicy: () => ToolPolicy;
  /** Where a workspace's new sessions are written. */
  sessionDir: (workspace: Workspace) => string;
  /** The data folder: its AGENTS.md, `skills/`, `prompts/` and `trust.json` (pi's agent folder). */
  dataDir: string;
  /** Team mode (users exist, or the host is reachable from elsewhere): trust decides (085). */
  teamMode: () => boolean;
  /** The server's compaction settings (`{compaction?, branchSummary?}` of config.json). */
  compactionSettings?: unknown;
  /** Whether each turn's workspace files are recorded (config.json `snapshots`, decision 121). */
  snapshots?: boolean;
  log: FastifyBaseLogger;
}

export function createSessionFactory(opts: SessionFactoryOptions): SessionFactory {
  const attach = async (store: SessionStore, workspace: Workspace): Promise<AgentSession> => {
    try {
      // One compaction pair per session: its threshold step keeps per-session measurements.
      const compaction = createArborCompaction(opts.compactionSettings);
      return await createAgentSession({
        workspace: workspace.path,
        exactWorkspace: true,
        store,
        catalog: opts.catalog(),
        toolPolicy: opts.toolPolicy(),
        compactor: compaction.compactor,
        contextSteps: compaction.contextSteps,
        resources: sessionResources({
          workspace: workspace.path,
          dataDir: opts.dataDir,
          enabled: workspace.resources !== false,
          teamMode: opts.teamMode,
        }),
        ...(opts.snapshots ? { snapshots: { dataDir: opts.dataDir, log: opts.log } } : {}),
      });
    } catch (error) {
      store.close();
      throw error;
    }
  };
  return {
    async open(file, workspace) {
      let store: SessionStore;
      try {
        store = SessionStore.open(file, { writableOnDemand: true });
      } catch (error) {
        opts.log.warn({ err: error, file }, 'session file could not be opened');
        if (error instanceof NotASessionFileError) {
          throw new ArborError('conflict', 'The session file is damaged beyond repair.');
        }
        throw error;
      }
      return attach(store, workspace);
    },
    create(workspace) {
      const store = SessionStore.create({
        cwd: workspace.path,
        sessionDir: opts.sessionDir(workspace),
      });
      return attach(store, workspace);
    },
    async fork(source, entryId, workspace) {
      const { store, text } = source.store.forkFrom(entryId, opts.sessionDir(workspace));
      return { agent: await attach(store, workspace), text };
    },
    clone(source, workspace) {
      return attach(source.store.cloneTo(opts.sessionDir(workspace)), workspace);
    },
  };
}
