import { SessionManager } from '@mariozechner/pi-coding-agent';
import { SessionEntrySchema, type SessionEntry } from '../../../shared/session-entries.js';
import { prng } from '../../../shared/prng.js';

/*
 * Random session trees written by pi's own SessionManager (so their shape is pi's), with every
 * entry type and message role, compactions at random kept points, branch summaries and branch
 * switches. Deterministic for a seed.
 */

const WORDS =
  'alpha beta gamma delta file edit read write test build fails passes src/app.ts lib'.split(' ');

export interface RandomSession {
  manager: ReturnType<typeof SessionManager.inMemory>;
  /** Every entry, parsed with Arbor's schemas. */
  entries: SessionEntry[];
  /** Ids of every entry, for picking leaves. */
  ids: string[];
}

export function randomSession(seed: number, steps = 120): RandomSession {
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
  const manager = SessionManager.inMemory('/tmp/project');
  // Messages are built loosely here (random shapes); pi's types are stricter than needed.
  const append = (message: Record<string, unknown>): void => {
    manager.appendMessage(message as never);
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
  let pendingCalls: { id: string; name: string }[] = [];

  for (let step = 0; step < steps; step++) {
    clock += 1000;
    const roll = rand();
    if (pendingCalls.length > 0) {
      const call = pendingCalls.shift()!;
      const content: unknown[] = [{ type: 'text', text: text(10, rand() < 0.2 ? 6000 : 300) }];
      if (rand() < 0.1) content.push({ type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' });
      append({
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content,
        isError: rand() < 0.1,
        timestamp: clock,
      });
      continue;
    }
    if (roll < 0.22) {
      const content =
        rand() < 0.5
          ? text(5, rand() < 0.1 ? 5000 : 400)
          : [
              { type: 'text', text: text(5, 200) },
              ...(rand() < 0.2 ? [{ type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }] : []),
              { type: 'text', text: text(5, 50) },
            ];
      append({ role: 'user', content, timestamp: clock });
    } else if (roll < 0.45) {
      const content: unknown[] = [];
      if (rand() < 0.3) content.push({ type: 'thinking', thinking: text(10, 300) });
      if (rand() < 0.8) content.push({ type: 'text', text: text(10, 800) });
      const calls = rand() < 0.4 ? 1 + Math.floor(rand() * 3) : 0;
      for (let i = 0; i < calls; i++) {
        const name = pick(['read', 'write', 'edit', 'bash', 'ls']);
        const id = `call_${step}_${i}`;
        const args: Record<string, unknown> =
          name === 'bash' ? { command: text(3, 40) } : { path: `src/${pick(WORDS)}.ts` };
        if (name === 'write') args.content = text(10, 200);
        content.push({ type: 'toolCall', id, name, arguments: args });
        pendingCalls.push({ id, name });
      }
      const stopReason = calls > 0 ? 'toolUse' : pick(['stop', 'stop', 'stop', 'error', 'aborted']);
      append({
        role: 'assistant',
        content,
        api: 'openai-completions',
        provider: 'demo',
        model: pick(['arbor-demo', 'other']),
        usage: usage(500 + Math.floor(rand() * 30000)),
        stopReason,
        ...(stopReason === 'error' ? { errorMessage: 'boom' } : {}),
        timestamp: clock,
      });
      if (stopReason === 'error' || stopReason === 'aborted') pendingCalls = [];
    } else if (roll < 0.5) {
      append({
        role: 'bashExecution',
        command: text(3, 30),
        output: text(0, 600),
        exitCode: pick([0, 1, undefined]),
        cancelled: rand() < 0.1,
        truncated: rand() < 0.1,
        ...(rand() < 0.5 ? { fullOutputPath: '/tmp/out.txt' } : {}),
        ...(rand() < 0.15 ? { excludeFromContext: true } : {}),
        timestamp: clock,
      });
    } else if (roll < 0.55) {
      manager.appendCustomMessageEntry(
        'note',
        rand() < 0.5 ? text(5, 200) : [{ type: 'text' as const, text: text(5, 100) }],
        rand() < 0.5,
      );
    } else if (roll < 0.62) {
      const which = Math.floor(rand() * 5);
      if (which === 0) manager.appendModelChange('demo', 'arbor-demo');
      else if (which === 1) manager.appendThinkingLevelChange(pick(['off', 'low', 'high']));
      else if (which === 2) manager.appendCustomEntry('ext', { n: step });
      else if (which === 3) manager.appendSessionInfo(text(3, 20));
      else {
        const leaf = manager.getLeafId();
        if (leaf) manager.appendLabelChange(leaf, rand() < 0.7 ? text(3, 10) : undefined);
      }
    } else if (roll < 0.68) {
      const path = manager.getBranch();
      if (path.length > 2 && path[path.length - 1]?.type !== 'compaction') {
        const kept = pick(path.slice(Math.floor(path.length / 2)));
        manager.appendCompaction(
          `Summary at step ${step}: ${text(20, 400)}`,
          rand() < 0.05 ? 'missing0' : kept.id,
          1000 + Math.floor(rand() * 50000),
          rand() < 0.8
            ? { readFiles: [`src/${pick(WORDS)}.ts`], modifiedFiles: [`src/${pick(WORDS)}.ts`] }
            : { other: true },
          rand() < 0.1 ? true : undefined,
        );
      }
    } else if (roll < 0.74) {
      const entries = manager.getEntries();
      if (entries.length > 0) {
        const target = pick(entries);
        manager.branchWithSummary(
          target.id,
          `Branch summary ${step}: ${text(20, 300)}`,
          { readFiles: [`src/${pick(WORDS)}.ts`], modifiedFiles: [] },
          rand() < 0.1 ? true : undefined,
        );
      }
    } else if (roll < 0.8) {
      const entries = manager.getEntries();
      if (entries.length > 0) manager.branch(pick(entries).id);
      pendingCalls = [];
    } else {
      append({ role: 'user', content: text(5, 300), timestamp: clock });
    }
  }
  const entries = (manager.getEntries() as unknown[]).map((entry) =>
    SessionEntrySchema.parse(entry),
  );
  return { manager, entries, ids: entries.map((entry) => entry.id) };
}
