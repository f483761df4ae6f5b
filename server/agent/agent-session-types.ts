import type { TurnSnapshots } from './turn-snapshots.js';
import type { SessionState } from '../../shared/agent-events.js';
import type { ImageContent } from '../../shared/messages.js';
import type { ModelCatalog, ModelInfo } from '../models/model-catalog.js';
import type { SessionStore } from '../store/session-store.js';
import type { AnyAgentTool } from '../tools/tool-types.js';
import type { StreamFn } from '../models/model-stream.js';
import type { Compactor, ContextStep } from '../compaction/context-transforms.js';
import type { RetrySettings } from './retry-policy.js';
import type { SystemPromptSections } from './system-prompt.js';
import type { AgentResources } from './agent-resources.js';

/* What an AgentSession is made from and what it answers: its dependencies, state and navigation. */

/** What `getState()` answers and `state_changed` carries. */
export type AgentSessionState = SessionState;

export interface NavigateOptions {
  summarize?: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

export interface NavigateResult {
  editorText?: string;
  editorImages?: ImageContent[];
  cancelled: boolean;
}

export interface AgentSessionDeps {
  store: SessionStore;
  catalog: ModelCatalog;
  model: ModelInfo;
  /** False when the file does not yet say `model` is in use: the first prompt records it. */
  modelRecorded?: boolean;
  /** False for a session with no entries yet: the first prompt records the thinking level too. */
  thinkingLevelRecorded?: boolean;
  thinkingLevel: string;
  tools: ReadonlyMap<string, AnyAgentTool>;
  streamFn: StreamFn;
  /**
   * Arbor's prompt, recorded in the session as pi 1.6 records its own (system-prompt.ts); asked
   * before every model request, so a changed context file is patched in at the next one.
   */
  systemSections: () => SystemPromptSections;
  /** The workspace's context files, skills and templates (agent-resources.ts). */
  resources: AgentResources;
  retry: RetrySettings;
  contextSteps: readonly ContextStep[];
  compactor?: Compactor;
  compactionSettings?: unknown;
  /** The workspace's files recorded per turn (turn-snapshots.ts); none when absent. */
  snapshots?: TurnSnapshots;
}
