import fs from 'node:fs';
import { TurnSnapshots, type SnapshotLog } from './turn-snapshots.js';
import type { ModelCatalog, ModelInfo } from '../models/model-catalog.js';
import { piAiStream } from '../models/pi-ai-stream.js';
import { clampThinkingLevel } from '../models/request-capabilities.js';
import type { SessionStore } from '../store/session-store.js';
import { createTools, DEFAULT_TOOL_POLICY, type ToolPolicy } from '../tools/create-tools.js';
import { AgentSession } from './agent-session.js';
import { UnknownModelError } from './session-errors.js';
import type { StreamFn } from '../models/model-stream.js';
import { createArborCompaction } from '../compaction/agent-compaction.js';
import type { Compactor, ContextStep } from '../compaction/context-transforms.js';
import { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './retry-policy.js';
import { buildSystemPromptSections, type SystemPromptSections } from './system-prompt.js';
import { NO_RESOURCES, type AgentResources } from './agent-resources.js';
import { modelRefText, type ModelRef } from '../../shared/model-ref.js';

/*
 * The library entry, like pi's createAgentSession: a workspace, a store (file or in-memory) and a
 * model give an AgentSession. The web server, `arbor run` and the tests all start here.
 */

export interface AgentSessionSettings {
  retry?: Partial<RetrySettings>;
  /** Handed to the compactor as is. */
  compaction?: unknown;
}

export interface CreateAgentSessionOptions {
  /** Tools act only inside it (by real path). */
  workspace: string;
  /** `workspace` is the real path the server resolved at start; refuse it once it leads elsewhere. */
  exactWorkspace?: boolean;
  store: SessionStore;
  catalog: ModelCatalog;
  /** Else the model restored from the session, else the catalog's default. */
  model?: ModelRef;
  toolPolicy?: ToolPolicy;
  settings?: AgentSessionSettings;
  /** The model call; the openai SDK by default. Tests may pass a scripted one. */
  streamFn?: StreamFn;
  /** Arbor's own prompt when omitted. */
  systemSections?: SystemPromptSections;
  /** The workspace's context files, skills and templates; none when omitted. */
  resources?: AgentResources;
  /**
   * Compaction's hook into the session (see context-transforms.ts). Arbor's compaction when
   * omitted (with its threshold check as the first context step); null for none.
   */
  compactor?: Compactor | null;
  /** Run before every model call, in order. */
  contextSteps?: ContextStep[];
  /**
   * Records the workspace's files per turn in a shadow repository in this data folder
   * (decision 121); absent, no snapshots are taken.
   */
  snapshots?: { dataDir: string; maxFileBytes?: number; log: SnapshotLog };
}

/** The model the session recorded last (kept even when this server cannot call it), if any. */
function restoredModel(catalog: ModelCatalog, store: SessionStore): ModelInfo | undefined {
  const saved = store.buildSessionContext().model;
  return saved ? catalog.recorded(saved.provider, saved.modelId) : undefined;
}

export async function createAgentSession(opts: CreateAgentSessionOptions): Promise<AgentSession> {
  const stat = fs.statSync(opts.workspace, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new Error(`Workspace "${opts.workspace}" is not a directory`);
  const { store, catalog } = opts;
  let model: ModelInfo;
  if (opts.model !== undefined) {
    const chosen = catalog.get(opts.model.provider, opts.model.modelId);
    if (!chosen) throw new UnknownModelError(`Unknown model "${modelRefText(opts.model)}"`);
    model = chosen;
  } else {
    model = restoredModel(catalog, store) ?? catalog.defaultModel();
  }
  const arbor =
    opts.compactor === undefined ? createArborCompaction(opts.settings?.compaction) : undefined;
  const compactor = arbor?.compactor ?? opts.compactor ?? undefined;
  const context = store.buildSessionContext();
  const isNew = store.getTree().length === 0;
  // A new session starts at pi's startup level (settings.json) when one is set, as pi's does.
  const thinkingLevel =
    (isNew ? catalog.startupThinkingLevel(model) : undefined) ?? (context.thinkingLevel || 'off');
  const tools = createTools(
    opts.workspace,
    opts.toolPolicy ?? DEFAULT_TOOL_POLICY,
    opts.exactWorkspace ? { exactWorkspace: true } : {},
  );
  const resources = opts.resources ?? NO_RESOURCES;
  let modelRecorded = true;
  let thinkingLevelRecorded = true;
  if (isNew && !store.access.writableNow) {
    // Only looked at so far: the first prompt starts it as pi's SDK would.
    modelRecorded = false;
    thinkingLevelRecorded = false;
  } else if (isNew) {
    // As pi's SDK starts a session: the model, then the thinking level.
    store.appendModelChange(model.provider, model.id);
    store.appendThinkingLevelChange(clampThinkingLevel(model, thinkingLevel));
  } else if (
    !context.model ||
    context.model.provider !== model.provider ||
    context.model.modelId !== model.id
  ) {
    // Opening never writes (decision 053): a session whose model is not in the catalog keeps its
    // recorded model until someone prompts it, and only then is the model in use recorded.
    modelRecorded = false;
  }
  return new AgentSession({
    modelRecorded,
    thinkingLevelRecorded,
    store,
    catalog,
    model,
    thinkingLevel,
    tools,
    streamFn: opts.streamFn ?? piAiStream,
    systemSections: opts.systemSections
      ? () => opts.systemSections as SystemPromptSections
      : () =>
          buildSystemPromptSections(
            store.cwd || opts.workspace,
            tools,
            resources.sections([...tools.keys()]),
          ),
    resources,
    retry: { ...DEFAULT_RETRY_SETTINGS, ...opts.settings?.retry },
    contextSteps: opts.contextSteps ?? arbor?.contextSteps ?? [],
    ...(compactor ? { compactor } : {}),
    ...(opts.snapshots
      ? {
          snapshots: new TurnSnapshots(
            store,
            {
              dataDir: opts.snapshots.dataDir,
              workspace: opts.workspace,
              ...(opts.snapshots.maxFileBytes !== undefined
                ? { maxFileBytes: opts.snapshots.maxFileBytes }
                : {}),
            },
            opts.snapshots.log,
          ),
        }
      : {}),
    ...(opts.settings?.compaction !== undefined
      ? { compactionSettings: opts.settings.compaction }
      : {}),
  });
}
