import { SessionManager } from '@mariozechner/pi-coding-agent';
import { SessionEntrySchema, type SessionEntry } from '../../shared/session-entries.js';
import { prng } from '../../shared/prng.js';

/*
 * The one random-session generator of the tests: `steps` random operations covering every entry
 * type, message role and leaf move (turns with tool calls, images and long outputs, answers that
 * fail or stop, bash executions, custom entries and messages, settings, labels, names, compactions
 * at random kept points, branch summaries, branches and new roots). It drives any writer with the
 * session API that Arbor's SessionStore and pi's SessionManager share, so the same seed gives the
 * same operations on either. Deterministic for a seed.
 */

/** What the generator calls: the part of the session API SessionStore and pi share. */
export interface SessionWriter {
  appendMessage(message: Record<string, unknown>): string;
  appendCustomMessageEntry(
    customType: string,
    content: string | { type: 'text'; text: string }[],
    display: boolean,
    details?: unknown,
  ): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendModelChange(provider: string, modelId: string): string;
  appendThinkingLevelChange(level: string): string;
  appendSessionInfo(name: string): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string;
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
  ): string;
  branch(id: string): void;
  resetLeaf(): void;
  getBranch(): readonly { id: string; type: string }[];
}

const WORDS =
  'alpha beta gamma delta file edit read write test build fails passes src/app.ts lib'.split(' ');
const IMAGE = { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' };

/** Drives `writer` through `steps` random operations; answers the ids of every entry written. */
export function randomSession(writer: SessionWriter, seed: number, steps = 120): string[] {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const text = (min: number, max: number): string => {
    const length = min + Math.floor(rand() * (max - min));
    const words: string[] = [];
    let chars = 0;
    while (chars < length) {
      const word = pick(WORDS);
      words.push(word);
      chars += word.length + 1;
    }
    return words.join(rand() < 0.1 ? '\n' : ' ');
  };
  const ids: string[] = [];
  const add = (id: string): string => {
    ids.push(id);
    return id;
  };
  let clock = 1_800_000_000_000;
  const usage = (total: number) => ({
    input: Math.floor(total * 0.7),
    output: Math.floor(total * 0.3),
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: rand() < 0.1 ? 0 : total,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  });
  const user = (): void => {
    const content =
      rand() < 0.5
        ? text(5, rand() < 0.1 ? 5000 : 400)
        : [
            { type: 'text', text: text(5, 200) },
            ...(rand() < 0.2 ? [IMAGE] : []),
            { type: 'text', text: text(5, 50) },
          ];
    add(writer.appendMessage({ role: 'user', content, timestamp: (clock += 1000) }));
  };
  const answer = (step: number): void => {
    const content: unknown[] = [];
    if (rand() < 0.3) content.push({ type: 'thinking', thinking: text(10, 300) });
    if (rand() < 0.8) content.push({ type: 'text', text: text(10, 800) });
    const calls: { id: string; name: string }[] = [];
    for (let i = 0, n = rand() < 0.4 ? 1 + Math.floor(rand() * 3) : 0; i < n; i++) {
      const name = pick(['read', 'write', 'edit', 'bash', 'ls']);
      const id = `call_${step}_${i}`;
      const args: Record<string, unknown> =
        name === 'bash' ? { command: text(3, 40) } : { path: `src/${pick(WORDS)}.ts` };
      if (name === 'write') args.content = text(10, 200);
      content.push({ type: 'toolCall', id, name, arguments: args });
      calls.push({ id, name });
    }
    const stopReason =
      calls.length > 0 ? 'toolUse' : pick(['stop', 'stop', 'stop', 'error', 'aborted']);
    add(
      writer.appendMessage({
        role: 'assistant',
        content,
        api: 'openai-completions',
        provider: 'demo',
        model: pick(['arbor-demo', 'other']),
        usage: usage(500 + Math.floor(rand() * 30000)),
        stopReason,
        ...(stopReason === 'error' ? { errorMessage: 'boom' } : {}),
        timestamp: (clock += 1000),
      }),
    );
    // Now and then a run stops between a call and its result.
    if (calls.length === 0 || rand() < 0.1) return;
    for (const call of calls) {
      const result: unknown[] = [{ type: 'text', text: text(10, rand() < 0.2 ? 6000 : 300) }];
      if (rand() < 0.1) result.push(IMAGE);
      add(
        writer.appendMessage({
          role: 'toolResult',
          toolCallId: call.id,
          toolName: call.name,
          content: result,
          isError: rand() < 0.1,
          timestamp: (clock += 1000),
        }),
      );
    }
    answer(step + 0.5);
  };

  for (let step = 0; step < steps; step++) {
    const roll = rand();
    if (roll < 0.3 || ids.length === 0) {
      user();
      answer(step);
    } else if (roll < 0.35) {
      add(
        writer.appendMessage({
          role: 'bashExecution',
          command: text(3, 30),
          output: text(0, 600),
          exitCode: pick([0, 1, undefined]),
          cancelled: rand() < 0.1,
          truncated: rand() < 0.1,
          ...(rand() < 0.5 ? { fullOutputPath: '/tmp/out.txt' } : {}),
          ...(rand() < 0.15 ? { excludeFromContext: true } : {}),
          timestamp: (clock += 1000),
        }),
      );
    } else if (roll < 0.41) {
      add(
        writer.appendCustomMessageEntry(
          pick(['note', 'hidden']),
          rand() < 0.5 ? text(5, 200) : [{ type: 'text', text: text(5, 100) }],
          rand() < 0.5,
          rand() < 0.3 ? { step } : undefined,
        ),
      );
    } else if (roll < 0.5) {
      const which = Math.floor(rand() * 5);
      if (which === 0)
        add(writer.appendModelChange(pick(['demo', 'p2']), pick(['arbor-demo', 'm4'])));
      else if (which === 1) add(writer.appendThinkingLevelChange(pick(['off', 'low', 'high'])));
      else if (which === 2) add(writer.appendCustomEntry('ext', { n: step }));
      else if (which === 3) add(writer.appendSessionInfo(text(3, 20)));
      else add(writer.appendLabelChange(pick(ids), rand() < 0.7 ? text(3, 10) : undefined));
    } else if (roll < 0.57) {
      const path = writer.getBranch();
      if (path.length > 2 && path[path.length - 1]?.type !== 'compaction') {
        const kept = pick(path.slice(Math.floor(path.length / 2)));
        add(
          writer.appendCompaction(
            `Summary at step ${step}: ${text(20, 400)}`,
            rand() < 0.05 ? 'missing0' : kept.id,
            1000 + Math.floor(rand() * 50000),
            rand() < 0.8
              ? { readFiles: [`src/${pick(WORDS)}.ts`], modifiedFiles: [`src/${pick(WORDS)}.ts`] }
              : { other: true },
            rand() < 0.1 ? true : undefined,
          ),
        );
      }
    } else if (roll < 0.64) {
      add(
        writer.branchWithSummary(
          rand() < 0.15 ? null : pick(ids),
          rand() < 0.15 ? '' : `Branch summary ${step}: ${text(20, 300)}`,
          { readFiles: [`src/${pick(WORDS)}.ts`], modifiedFiles: [] },
          rand() < 0.1 ? true : undefined,
        ),
      );
    } else if (roll < 0.76) {
      writer.branch(pick(ids));
    } else if (roll < 0.8) {
      writer.resetLeaf();
    } else {
      user();
    }
  }
  return ids;
}

/** A random session written by pi's own SessionManager (so its shape is pi's), in memory. */
export interface RandomPiSession {
  manager: ReturnType<typeof SessionManager.inMemory>;
  /** Every entry, parsed with Arbor's schemas. */
  entries: SessionEntry[];
  /** Ids of every entry, for picking leaves. */
  ids: string[];
}

export function randomPiSession(seed: number, steps = 120): RandomPiSession {
  const manager = SessionManager.inMemory('/tmp/project');
  // pi's message types are stricter than the generator's loose shapes; the file is pi's all the same.
  randomSession(manager as unknown as SessionWriter, seed, steps);
  const entries = (manager.getEntries() as unknown[]).map((entry) =>
    SessionEntrySchema.parse(entry),
  );
  return { manager, entries, ids: entries.map((entry) => entry.id) };
}
