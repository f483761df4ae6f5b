import type { AgentMessage, ToolCall, Usage } from '../../shared/messages.js';
import { prng } from '../../shared/prng.js';
import { assistantMessage, bashMessage, toolResultMessage, userMessage } from './messages.js';

/*
 * The one session generator of the tests and the benchmarks, over one seeded text source and the
 * one message factory (`messages.ts`):
 *
 * - `codingTurn` draws one turn of a long-lived coding session (a prompt, tool calls each in its
 *   own answer with a large result, a closing answer); the benchmarks and the long sessions of
 *   the compaction tests lay such turns out in their own shapes, through whichever writer makes
 *   their file (pi's SessionManager, Arbor's store, a file written straight).
 * - `turnMessages` is what a turn is made of, from a spec: the generated turns and the ones whose
 *   words a test chooses are built the same way.
 * - `randomSession` drives any writer through random operations covering every entry type,
 *   message role and leaf move, for property tests.
 *
 * Deterministic for a seed. It imports nothing of pi's, so worker threads can load it;
 * `random-pi-session.ts` runs it through pi's SessionManager.
 */

/** What the generator calls: the part of the session API SessionStore and pi share. */
export interface SessionWriter {
  appendMessage(message: AgentMessage): string;
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

/** Words a coding session's texts are drawn from, shaped like prose about the app itself. */
const PROSE =
  'the session tree keeps every branch of a conversation with the agent so nothing is lost when a prompt is edited and run again while tools read files and write patches'.split(
    ' ',
  );

/** A seeded source of a session's words, times and call ids. */
export interface SessionText {
  rand(): number;
  pick<T>(items: readonly T[]): T;
  /** `count` words joined by spaces. */
  words(count: number): string;
  /** Words until they and a space after each reach `chars` characters. */
  wordsUpTo(chars: number): string[];
  /** Numbered lines of 6–15 words (as read and grep print them) until `bytes` are reached. */
  lines(bytes: number): string;
  /** The next message time: 1–6 seconds after the last. */
  tick(): number;
  /** A new tool call id, unique in the session. */
  callId(): string;
}

export function sessionText(
  seed: number,
  opts: { vocabulary?: readonly string[]; start?: number } = {},
): SessionText {
  const rand = prng(seed);
  const vocabulary = opts.vocabulary ?? PROSE;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const words = (count: number): string =>
    Array.from({ length: count }, () => pick(vocabulary)).join(' ');
  let now = opts.start ?? Date.parse('2026-01-01T00:00:00.000Z');
  let calls = 0;
  return {
    rand,
    pick,
    words,
    wordsUpTo(chars) {
      const picked: string[] = [];
      for (let length = 0; length < chars;) {
        const word = pick(vocabulary);
        picked.push(word);
        length += word.length + 1;
      }
      return picked;
    },
    lines(bytes) {
      const lines: string[] = [];
      for (let size = 0; size < bytes;) {
        const line = `${String(lines.length + 1).padStart(5)}  ${words(6 + Math.floor(rand() * 10))}`;
        lines.push(line);
        size += line.length + 1;
      }
      return lines.join('\n');
    },
    tick: () => (now += 1000 + Math.floor(rand() * 5000)),
    callId: () => `call_${++calls}`,
  };
}

/** An answer of a turn: its words, and what a provider reported with it. */
export interface AnswerSpec {
  text: string;
  thinking?: string;
  usage?: Partial<Usage>;
  timestamp?: number;
}

/** A round of a turn: an answer with one tool call, then the call's result. */
export interface RoundSpec extends AnswerSpec {
  call: Pick<ToolCall, 'id' | 'name' | 'arguments'>;
  result: string;
  isError?: boolean;
  resultTime?: number;
}

/** One turn: a prompt, rounds of tool calls, a closing answer. */
export interface TurnSpec {
  prompt: string;
  promptTime?: number;
  rounds: RoundSpec[];
  answer: AnswerSpec;
}

/** The model every answer of a turn names. */
export interface TurnModel {
  provider: string;
  model: string;
}

/** The messages of `turn`, in order, built by the message factory. */
export function turnMessages(turn: TurnSpec, model: TurnModel): AgentMessage[] {
  const answer = (spec: AnswerSpec, call?: RoundSpec['call']) =>
    assistantMessage(spec.text, {
      ...model,
      ...(spec.thinking === undefined
        ? {}
        : { thinking: { type: 'thinking', thinking: spec.thinking, thinkingSignature: '' } }),
      ...(call ? { toolCalls: [{ type: 'toolCall', ...call }] } : {}),
      ...(spec.usage ? { usage: spec.usage } : {}),
      ...(spec.timestamp === undefined ? {} : { timestamp: spec.timestamp }),
    });
  const messages: AgentMessage[] = [
    userMessage(turn.prompt, turn.promptTime === undefined ? {} : { timestamp: turn.promptTime }),
  ];
  for (const round of turn.rounds) {
    messages.push(answer(round, round.call));
    messages.push(
      toolResultMessage(round.call, round.result, {
        isError: round.isError ?? false,
        ...(round.resultTime === undefined ? {} : { timestamp: round.resultTime }),
      }),
    );
  }
  messages.push(answer(turn.answer));
  return messages;
}

/** How big a generated turn is. */
export interface TurnShape {
  /** Fewest and most tool rounds. */
  tools: readonly [number, number];
  /** Multiplies every length (words and result bytes); 1 by default. */
  scale?: number;
}

/**
 * Turn `n` of a coding session: a prompt of 20–60 words; rounds of 30 words of thinking, 15 of
 * text and a bash or read call, each with a 600–4,100-byte result (one in twenty an error); a
 * closing answer of 60–180 words. Usage is a provider's (input 1,000–51,000 tokens). The draws
 * keep their order: the session-open bench's figures were measured on the file this order makes.
 */
export function codingTurn(text: SessionText, n: number, shape: TurnShape): TurnSpec {
  const scale = shape.scale ?? 1;
  const rand = text.rand;
  const words = (count: number): string => text.words(Math.max(1, Math.round(count * scale)));
  const usage = (): Partial<Usage> => ({
    input: 1000 + Math.floor(rand() * 50_000),
    output: Math.floor(rand() * 2000),
    cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 },
  });
  const prompt = `Turn ${n}: ${words(20 + Math.floor(rand() * 40))}`;
  const promptTime = text.tick();
  const [least, most] = shape.tools;
  const rounds: RoundSpec[] = [];
  for (let t = 0, count = least + Math.floor(rand() * (most - least + 1)); t < count; t++) {
    const thinking = words(30);
    const said = words(15);
    const name = t % 2 ? 'read' : 'bash';
    const call = {
      id: text.callId(),
      name,
      arguments: { command: `grep -rn ${text.words(2)} src/` },
    };
    const round = { thinking, text: said, call, usage: usage(), timestamp: text.tick() };
    const result = text.lines((600 + Math.floor(rand() * 3500)) * scale);
    rounds.push({ ...round, result, isError: rand() < 0.05, resultTime: text.tick() });
  }
  const answer = words(60 + Math.floor(rand() * 120));
  return {
    prompt,
    promptTime,
    rounds,
    answer: { text: answer, usage: usage(), timestamp: text.tick() },
  };
}

/** Appends `messages` in order through `writer`; the ids written. */
export function appendMessages(
  writer: Pick<SessionWriter, 'appendMessage'>,
  messages: readonly AgentMessage[],
): string[] {
  return messages.map((message) => writer.appendMessage(message));
}

/** The technical words of random sessions: paths, and short words that split lines. */
const WORDS =
  'alpha beta gamma delta file edit read write test build fails passes src/app.ts lib'.split(' ');
const IMAGE = { type: 'image' as const, data: 'aGVsbG8=', mimeType: 'image/png' };

/** Drives `writer` through `steps` random operations; answers the ids of every entry written. */
export function randomSession(writer: SessionWriter, seed: number, steps = 120): string[] {
  const source = sessionText(seed, { vocabulary: WORDS });
  const { rand, pick } = source;
  const text = (min: number, max: number): string =>
    source.wordsUpTo(min + Math.floor(rand() * (max - min))).join(rand() < 0.1 ? '\n' : ' ');
  const ids: string[] = [];
  const add = (id: string): string => {
    ids.push(id);
    return id;
  };
  let clock = 1_800_000_000_000;
  const usage = (total: number): Partial<Usage> => ({
    input: Math.floor(total * 0.7),
    output: Math.floor(total * 0.3),
    totalTokens: rand() < 0.1 ? 0 : total,
  });
  const user = (): void => {
    const content =
      rand() < 0.5
        ? text(5, rand() < 0.1 ? 5000 : 400)
        : [
            { type: 'text' as const, text: text(5, 200) },
            ...(rand() < 0.2 ? [IMAGE] : []),
            { type: 'text' as const, text: text(5, 50) },
          ];
    add(
      writer.appendMessage(userMessage(content, { plainString: true, timestamp: (clock += 1000) })),
    );
  };
  const answer = (step: number): void => {
    const thinking = rand() < 0.3 ? text(10, 300) : undefined;
    const said = rand() < 0.8 ? text(10, 800) : '';
    const calls: ToolCall[] = [];
    for (let i = 0, n = rand() < 0.4 ? 1 + Math.floor(rand() * 3) : 0; i < n; i++) {
      const name = pick(['read', 'write', 'edit', 'bash', 'ls']);
      const args: Record<string, unknown> =
        name === 'bash' ? { command: text(3, 40) } : { path: `src/${pick(WORDS)}.ts` };
      if (name === 'write') args.content = text(10, 200);
      calls.push({ type: 'toolCall', id: `call_${step}_${i}`, name, arguments: args });
    }
    const stopReason =
      calls.length > 0 ? 'toolUse' : pick(['stop', 'stop', 'stop', 'error', 'aborted'] as const);
    add(
      writer.appendMessage(
        assistantMessage(said, {
          ...(thinking === undefined ? {} : { thinking }),
          toolCalls: calls,
          stopReason,
          provider: 'demo',
          model: pick(['arbor-demo', 'other']),
          usage: usage(500 + Math.floor(rand() * 30000)),
          ...(stopReason === 'error' ? { errorMessage: 'boom' } : {}),
          timestamp: (clock += 1000),
        }),
      ),
    );
    // Now and then a run stops between a call and its result.
    if (calls.length === 0 || rand() < 0.1) return;
    for (const call of calls) {
      const result = [{ type: 'text' as const, text: text(10, rand() < 0.2 ? 6000 : 300) }];
      const content = rand() < 0.1 ? [...result, IMAGE] : result;
      add(
        writer.appendMessage(
          toolResultMessage(call, content, { isError: rand() < 0.1, timestamp: (clock += 1000) }),
        ),
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
        writer.appendMessage(
          bashMessage(text(3, 30), text(0, 600), {
            exitCode: pick([0, 1, undefined]),
            cancelled: rand() < 0.1,
            truncated: rand() < 0.1,
            ...(rand() < 0.5 ? { fullOutputPath: '/tmp/out.txt' } : {}),
            ...(rand() < 0.15 ? { excludeFromContext: true } : {}),
            timestamp: (clock += 1000),
          }),
        ),
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
