import { assertNever } from '../../shared/agent-events.js';
import type { Command, CommandResults, UserSummary } from '../../shared/protocol.js';
import { ArborError } from '../errors/error-catalog.js';
import { accessFor, mayAccess, readsOnly } from '../auth/authorisation.js';
import type { SessionOwners } from '../auth/session-owners.js';
import { fitBody } from './fit-body.js';
import type { LiveSession } from './live-session.js';
import { SNAPSHOT_MESSAGES, snapshotMessages } from './path-messages.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SessionHub } from './session-hub.js';
import { sessionStatsOf } from './session-stats.js';

/*
 * Maps each WebSocket command to the hub and the AgentSession, after the authorisation check the
 * command needs. Knows nothing of sockets: the connection gives it a context and sends its answer.
 */

export interface CommandContext {
  user: UserSummary;
  hub: SessionHub;
  owners: SessionOwners;
  promptLimiter: RateLimiter;
  /**
   * Opens the session if needed and subscribes this connection to it, sending a snapshot or the
   * missed events first; resolves to the session's seq.
   */
  subscribe(sessionId: string, lastSeq?: number): Promise<number>;
  unsubscribe(sessionId: string): void;
  /** The live session this connection subscribed to; throws not_subscribed otherwise. */
  subscribed(sessionId: string): Promise<LiveSession>;
  subscribedIds(): string[];
  /** The most bytes of bodies one answer may carry to this client (see path-messages.ts). */
  frameBodyBytes: number;
  log: { error(obj: unknown, msg: string): void };
}

type Result = CommandResults[keyof CommandResults];

function authorise(ctx: CommandContext, command: Command, sessionId: string): void {
  const access = accessFor(command.type);
  if (!mayAccess(ctx.user, ctx.owners.ownerOf(sessionId), access)) {
    throw new ArborError(
      'forbidden',
      readsOnly(ctx.user)
        ? 'Viewers can read sessions but not change them.'
        : 'Only the owner of this session or an admin may do this.',
    );
  }
}

/** A session command: the session must be subscribed and the user allowed. */
async function target(ctx: CommandContext, command: Command & { sessionId: string }) {
  const live = await ctx.subscribed(command.sessionId);
  authorise(ctx, command, command.sessionId);
  return live;
}

function takePromptToken(ctx: CommandContext): void {
  if (!ctx.promptLimiter.take(ctx.user.name)) {
    throw new ArborError('rate_limited', 'Too many prompts this minute; wait a little.');
  }
}

/** Starts a run and answers once it has begun (or failed to begin); the run's events follow. */
async function startPrompt(ctx: CommandContext, live: LiveSession, run: Promise<void>) {
  let failure: { error: unknown } | undefined;
  let answered = false;
  run.catch((error: unknown) => {
    if (!answered) failure = { error };
    else ctx.log.error({ err: error, sessionId: live.sessionId }, 'a run ended with an error');
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  answered = true;
  if (failure) throw failure.error;
}

/**
 * The entries asked for, as many as fit `budget` bytes (always the first found); the rest are
 * `deferred`, to be asked for again. A body bigger than half the budget is sent cut (fit-body.ts).
 */
function entriesWithin(live: LiveSession, ids: readonly string[], budget: number) {
  const entries: Record<string, unknown>[] = [];
  const missing: string[] = [];
  const deferred: string[] = [];
  let used = 0;
  for (const id of ids) {
    if (used >= budget) {
      deferred.push(id);
      continue;
    }
    const entry = live.agent.view.getEntry(id);
    if (!entry) {
      missing.push(id);
      continue;
    }
    const fitted = fitBody(entry, Math.floor(budget / 2));
    if (entries.length > 0 && used + fitted.bytes > budget) {
      deferred.push(id);
      used = budget;
      continue;
    }
    used += fitted.bytes;
    entries.push(fitted.value);
  }
  return { entries, missing, ...(deferred.length > 0 ? { deferred } : {}) };
}

export async function runCommand(ctx: CommandContext, command: Command): Promise<Result> {
  switch (command.type) {
    case 'subscribe':
      return { seq: await ctx.subscribe(command.sessionId, command.lastSeq) };
    case 'unsubscribe':
      ctx.unsubscribe(command.sessionId);
      return {};
    case 'switch_session': {
      const seq = await ctx.subscribe(command.sessionId);
      for (const id of ctx.subscribedIds()) if (id !== command.sessionId) ctx.unsubscribe(id);
      return { seq };
    }
    case 'prompt': {
      const live = await target(ctx, command);
      takePromptToken(ctx);
      if (live.isBusy()) {
        throw new ArborError(
          'session_busy',
          'The session is running; steer, queue a follow-up or abort.',
        );
      }
      const images = command.images;
      await startPrompt(
        ctx,
        live,
        live.agent.prompt(command.text, { ...(images ? { images } : {}), author: ctx.user.name }),
      );
      return { accepted: true };
    }
    case 'steer': {
      const live = await target(ctx, command);
      takePromptToken(ctx);
      live.agent.steer(command.text, command.images, ctx.user.name);
      return { queued: true };
    }
    case 'follow_up': {
      const live = await target(ctx, command);
      takePromptToken(ctx);
      live.agent.followUp(command.text, command.images, ctx.user.name);
      return { queued: true };
    }
    case 'abort': {
      const live = await target(ctx, command);
      await live.agent.abort();
      return {};
    }
    case 'clear_queue': {
      const live = await target(ctx, command);
      return live.agent.clearQueue();
    }
    case 'dequeue': {
      const live = await target(ctx, command);
      return live.agent.dequeue(command.queue, command.index, command.text);
    }
    case 'get_state': {
      const live = await target(ctx, command);
      return live.agent.getState();
    }
    case 'get_resources': {
      const live = await target(ctx, command);
      return live.agent.resources.describe();
    }
    case 'get_tree': {
      const live = await target(ctx, command);
      return { tree: live.agent.view.getTree(), leafId: live.agent.view.getLeafId() };
    }
    case 'get_entries': {
      const live = await target(ctx, command);
      return entriesWithin(live, command.ids, ctx.frameBodyBytes);
    }
    case 'get_path': {
      const live = await target(ctx, command);
      const store = live.agent.view;
      if (!store.getNode(command.entryId)) {
        throw new ArborError('not_found', `No entry ${command.entryId} in this session.`);
      }
      const window = snapshotMessages(
        store.getBranch(command.entryId),
        SNAPSHOT_MESSAGES,
        ctx.frameBodyBytes,
      );
      return { entryId: command.entryId, ...window };
    }
    case 'navigate_tree': {
      const live = await target(ctx, command);
      const { summarize, customInstructions, replaceInstructions, label } = command;
      const result = await live.agent.navigateTree(command.targetId, {
        ...(summarize !== undefined ? { summarize } : {}),
        ...(customInstructions !== undefined ? { customInstructions } : {}),
        ...(replaceInstructions !== undefined ? { replaceInstructions } : {}),
        ...(label !== undefined ? { label } : {}),
      });
      return {
        cancelled: result.cancelled,
        ...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
        ...(result.editorImages !== undefined ? { editorImages: result.editorImages } : {}),
      };
    }
    case 'fork': {
      const source = await target(ctx, command);
      const { live, text } = await ctx.hub.fork(source, command.entryId);
      ctx.owners.setOwner(live.sessionId, ctx.user.name);
      return { sessionId: live.sessionId, editorText: text };
    }
    case 'clone': {
      const source = await target(ctx, command);
      const live = await ctx.hub.clone(source);
      ctx.owners.setOwner(live.sessionId, ctx.user.name);
      return { sessionId: live.sessionId };
    }
    case 'new_session': {
      const workspace = ctx.hub.locator.workspace(command.workspaceId);
      if (!workspace) throw new ArborError('not_found', `No workspace ${command.workspaceId}.`);
      if (!mayAccess(ctx.user, null, 'create')) {
        throw new ArborError('forbidden', 'Viewers cannot start sessions.');
      }
      const live = await ctx.hub.create(workspace);
      ctx.owners.setOwner(live.sessionId, ctx.user.name);
      return { sessionId: live.sessionId };
    }
    case 'compact': {
      const live = await target(ctx, command);
      if (live.isBusy()) throw new ArborError('session_busy');
      const result = await live.agent.compact(command.customInstructions);
      return {
        summary: result.summary,
        firstKeptEntryId: result.firstKeptEntryId,
        tokensBefore: result.tokensBefore,
      };
    }
    case 'set_model': {
      const live = await target(ctx, command);
      const { provider, modelId } = command;
      if (!ctx.hub.mayUseModel(provider, modelId)) {
        throw new ArborError('invalid_argument', `No model "${provider}/${modelId}".`);
      }
      live.agent.setModel({ provider, modelId });
      ctx.hub.modelChosen(ctx.user.name, { provider, modelId });
      return {};
    }
    case 'set_thinking_level': {
      const live = await target(ctx, command);
      live.agent.setThinkingLevel(command.level);
      return {};
    }
    case 'set_label': {
      const live = await target(ctx, command);
      live.agent.setLabel(command.entryId, command.label);
      return {};
    }
    case 'bash': {
      const live = await target(ctx, command);
      // A shell command costs what a prompt costs: it counts against the same limit.
      takePromptToken(ctx);
      await live.agent.bash(command.command, command.excludeFromContext === true);
      return {};
    }
    case 'set_session_name': {
      const live = await target(ctx, command);
      live.agent.setSessionName(command.name);
      return {};
    }
    case 'edit_context': {
      const live = await target(ctx, command);
      if (live.isBusy()) {
        throw new ArborError(
          'session_busy',
          'The session is running; edit the context once the run has ended (or abort it).',
        );
      }
      const content = command.content;
      const change =
        content === null
          ? { hide: true as const }
          : typeof content === 'string'
            ? { text: content }
            : { restore: true as const };
      return { entryId: await live.agent.editContext(command.targetId, change) };
    }
    case 'get_session_stats':
      return sessionStatsOf(await target(ctx, command), command.entryId);
    case 'ping':
      return { time: Date.now() };
    default:
      return assertNever(command);
  }
}
