import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../../shared/agent-events.js';
import type { AgentMessage, AssistantMessage, UserMessage } from '../../shared/messages.js';
import type { ModelInfo } from '../models/model-catalog.js';
import { emptyAssistantMessage } from '../models/pi-ai-stream.js';
import { runAgentLoop, type AgentLoopConfig } from './agent-loop.js';
import type { AnyAgentTool } from '../tools/tool-types.js';
import type {
  ModelRequest,
  ModelStreamEvent,
  ModelStreamOutcome,
  StreamFn,
} from '../models/model-stream.js';
import { NO_RESULT_TEXT, toProviderMessages } from '../models/convert-to-llm.js';
import { DEFAULT_RETRY_SETTINGS } from './retry-policy.js';
import { defineTool, textResult } from '../tools/tool-args.js';

/*
 * The loop with a scripted stream function: each model call is answered from a list of replies.
 * Integration tests drive the real client against the demo model; these pin the loop's own rules.
 */

const model: ModelInfo = {
  id: 'scripted',
  name: 'scripted',
  provider: 'test',
  baseUrl: 'http://unused',
  contextWindow: 1000,
  maxOutputTokens: 100,
  reasoning: false,
  input: ['text'],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

type Reply = {
  text?: string;
  calls?: { id: string; name: string; args: unknown }[];
  error?: string;
  retryAfterMs?: number;
  throws?: string;
};

function scripted(replies: Reply[], requests: ModelRequest[] = []): StreamFn {
  return async function* (request): AsyncGenerator<ModelStreamEvent, ModelStreamOutcome, void> {
    requests.push(request);
    const reply = replies.shift() ?? { text: 'done' };
    if (reply.throws) throw new Error(reply.throws);
    const message = emptyAssistantMessage(model);
    if (reply.error) {
      return {
        message: { ...message, stopReason: 'error', errorMessage: reply.error },
        ...(reply.retryAfterMs !== undefined ? { retryAfterMs: reply.retryAfterMs } : {}),
      };
    }
    yield { type: 'start' };
    if (reply.text) {
      message.content.push({ type: 'text', text: reply.text });
      yield { type: 'text_start', contentIndex: 0 };
      yield { type: 'text_delta', contentIndex: 0, delta: reply.text };
      yield { type: 'text_end', contentIndex: 0 };
    }
    for (const call of reply.calls ?? []) {
      const toolCall = {
        type: 'toolCall' as const,
        id: call.id,
        name: call.name,
        arguments: call.args as Record<string, unknown>,
      };
      const index = message.content.length;
      message.content.push(toolCall);
      yield { type: 'toolcall_start', contentIndex: index, id: call.id, name: call.name };
      yield { type: 'toolcall_end', contentIndex: index, toolCall };
    }
    message.stopReason = reply.calls ? 'toolUse' : 'stop';
    return { message };
  };
}

const echoTool: AnyAgentTool = defineTool({
  name: 'echo',
  description: 'echoes',
  schema: z.strictObject({ text: z.string(), delayMs: z.number().optional() }),
  async execute(args) {
    if (args.delayMs) await new Promise((resolve) => setTimeout(resolve, args.delayMs));
    return textResult(args.text);
  },
});

function user(text: string): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() };
}

function config(streamFn: StreamFn, overrides: Partial<AgentLoopConfig> = {}): AgentLoopConfig {
  return {
    getModel: () => model,
    getAuth: () => ({ apiKey: 'key' }),
    getThinkingLevel: () => 'off',
    systemSections: () => ({ preamble: 'system' }),
    tools: new Map([['echo', echoTool]]),
    streamFn,
    getSteeringMessages: () => [],
    getFollowUpMessages: () => [],
    retry: { ...DEFAULT_RETRY_SETTINGS, baseDelayMs: 1 },
    ...overrides,
  };
}

async function run(
  prompts: AgentMessage[],
  cfg: AgentLoopConfig,
  signal = new AbortController().signal,
) {
  const events: AgentEvent[] = [];
  const context: AgentMessage[] = [];
  const result = await runAgentLoop(prompts, context, cfg, (e) => events.push(e), signal);
  return { events, context, result };
}

describe('agent loop', () => {
  it('finishes tool results in source order even when a later call finishes first', async () => {
    const { events, context } = await run(
      [user('go')],
      config(
        scripted([
          {
            calls: [
              { id: 'slow', name: 'echo', args: { text: 'A', delayMs: 60 } },
              { id: 'fast', name: 'echo', args: { text: 'B' } },
            ],
          },
          { text: 'ok' },
        ]),
      ),
    );
    const ends = events
      .filter((e) => e.type === 'tool_execution_end')
      .map((e) => e.type === 'tool_execution_end' && e.toolCallId);
    expect(ends).toEqual(['fast', 'slow']);
    expect(
      context
        .filter((m) => m.role === 'toolResult')
        .map((m) => m.role === 'toolResult' && m.toolCallId),
    ).toEqual(['slow', 'fast']);
    // How long each ran, as pi 1.6 records it: on the result and on its end event alike.
    const results = context.filter((m) => m.role === 'toolResult');
    const slow = results[0]!.role === 'toolResult' ? results[0]!.durationMs : undefined;
    const fast = results[1]!.role === 'toolResult' ? results[1]!.durationMs : undefined;
    expect(slow).toBeGreaterThanOrEqual(55);
    expect(fast).toBeLessThan(slow!);
    expect(
      events.find((e) => e.type === 'tool_execution_end' && e.toolCallId === 'slow'),
    ).toMatchObject({ durationMs: slow });
  });

  it('records no duration for a call refused before it ran', async () => {
    const { context } = await run(
      [user('go')],
      config(scripted([{ calls: [{ id: 'x', name: 'nope', args: {} }] }, { text: 'ok' }])),
    );
    const result = context.find((m) => m.role === 'toolResult');
    expect(result).toMatchObject({ isError: true });
    expect(result).not.toHaveProperty('durationMs');
  });

  it('injects steering after the whole tool batch, before the next model call', async () => {
    const requests: ModelRequest[] = [];
    const steering: AgentMessage[][] = [[], [user('steer now')]];
    const { context } = await run(
      [user('go')],
      config(
        scripted(
          [
            {
              calls: [
                { id: 'a', name: 'echo', args: { text: 'A' } },
                { id: 'b', name: 'echo', args: { text: 'B' } },
              ],
            },
            { text: 'steered' },
          ],
          requests,
        ),
        { getSteeringMessages: () => steering.shift() ?? [] },
      ),
    );
    expect(context.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'user',
      'assistant',
    ]);
    expect(
      context
        .filter((m) => m.role === 'toolResult')
        .every((m) => m.role === 'toolResult' && !m.isError),
    ).toBe(true);
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('ends a throwing stream function as an error message, not an exception', async () => {
    const { context, events } = await run(
      [user('go')],
      config(scripted([{ throws: 'defect in stream' }]), {
        retry: { ...DEFAULT_RETRY_SETTINGS, enabled: false },
      }),
    );
    const last = context.at(-1) as AssistantMessage;
    expect(last).toMatchObject({
      role: 'assistant',
      stopReason: 'error',
      errorMessage: 'defect in stream',
    });
    expect(events.at(-1)?.type).toBe('agent_end');
  });

  it('uses the provider Retry-After, capped by maxDelayMs', async () => {
    const { events } = await run(
      [user('go')],
      config(scripted([{ error: '429 rate limited', retryAfterMs: 999_999 }, { text: 'ok' }]), {
        retry: { enabled: true, maxRetries: 3, baseDelayMs: 1, maxDelayMs: 7 },
      }),
    );
    expect(events.find((e) => e.type === 'auto_retry_start')).toMatchObject({ delayMs: 7 });
  });

  it('does not retry a context overflow', async () => {
    const { events } = await run(
      [user('go')],
      config(
        scripted([
          {
            error:
              "400 This model's maximum context length is 10 tokens. However, your messages resulted in 20 tokens.",
          },
        ]),
      ),
    );
    expect(events.some((e) => e.type === 'auto_retry_start')).toBe(false);
  });

  it('an abort while retrying cancels the wait and reports it', async () => {
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const running = runAgentLoop(
      [user('go')],
      [],
      config(scripted([{ error: '503 unavailable' }]), {
        retry: { enabled: true, maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      }),
      (e) => {
        events.push(e);
        if (e.type === 'auto_retry_start') controller.abort();
      },
      controller.signal,
    );
    await running;
    expect(events.at(-1)).toMatchObject({
      type: 'auto_retry_end',
      success: false,
      finalError: 'Retry cancelled',
    });
  });

  it('runs context transforms before every model call, tool loops included', async () => {
    let calls = 0;
    await run(
      [user('go')],
      config(
        scripted([{ calls: [{ id: 'a', name: 'echo', args: { text: 'A' } }] }, { text: 'ok' }]),
        {
          transforms: [
            async (messages) => {
              calls++;
              return messages;
            },
          ],
        },
      ),
    );
    expect(calls).toBe(2);
  });
});

describe('conversion to provider messages', () => {
  it('drops failed assistants and answers orphaned tool calls, with pi texts for other roles', () => {
    const ok = {
      ...emptyAssistantMessage(model),
      stopReason: 'toolUse' as const,
      content: [{ type: 'toolCall' as const, id: 'c1', name: 'echo', arguments: {} }],
    };
    const failed = {
      ...emptyAssistantMessage(model),
      stopReason: 'error' as const,
      errorMessage: 'boom',
    };
    const out = toProviderMessages([
      user('hi'),
      ok,
      { role: 'compactionSummary', summary: 'S', tokensBefore: 1, timestamp: 1 },
      failed,
      {
        role: 'bashExecution',
        command: 'ls',
        output: '',
        exitCode: 2,
        cancelled: false,
        truncated: false,
        timestamp: 1,
      },
      { role: 'branchSummary', summary: 'B', fromId: 'x', timestamp: 1 },
      { role: 'custom', customType: 'note', content: 'custom text', display: true, timestamp: 1 },
    ]);
    expect(out.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'user',
      'user',
      'user',
      'user',
    ]);
    expect(out[2]).toMatchObject({
      toolCallId: 'c1',
      isError: true,
      content: [{ text: NO_RESULT_TEXT }],
    });
    const texts = out
      .slice(3)
      .map((m) =>
        m.role === 'user' && typeof m.content !== 'string' && m.content[0]?.type === 'text'
          ? m.content[0].text
          : '',
      );
    expect(texts).toEqual([
      'The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>',
      'Ran `ls`\n(no output)\n\nCommand exited with code 2',
      'The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>',
      'custom text',
    ]);
  });

  it('keeps system messages in order, holding one that falls between a call and its result', () => {
    const call = {
      ...emptyAssistantMessage(model),
      stopReason: 'toolUse' as const,
      content: [{ type: 'toolCall' as const, id: 'c1', name: 'echo', arguments: {} }],
    };
    const system = (text: string) => ({ role: 'system' as const, content: text, timestamp: 1 });
    const result = {
      role: 'toolResult' as const,
      toolCallId: 'c1',
      toolName: 'echo',
      content: [{ type: 'text' as const, text: 'r' }],
      isError: false,
      timestamp: 1,
    };
    const out = toProviderMessages([
      system('a'),
      user('hi'),
      call,
      system('b'),
      result,
      user('go'),
    ]);
    // As pi-ai's transformMessages: "b" waits until the call is answered, then goes on.
    expect(out.map((m) => (m.role === 'system' ? `system:${String(m.content)}` : m.role))).toEqual([
      'system:a',
      'user',
      'assistant',
      'toolResult',
      'system:b',
      'user',
    ]);
  });
});
