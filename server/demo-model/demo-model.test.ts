import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Fastify from 'fastify';
import { startDemoModel, demoModelPlugin, type RunningDemoModel } from './demo-model-server.js';
import { DEMO_MODEL_ID } from './demo-model-handler.js';
import {
  DEFAULT_SECTIONS,
  MAX_SLOW_MS,
  parseDirectives,
  quotedUserRequests,
  requestedSections,
} from './demo-script.js';

let demo: RunningDemoModel;
let client: OpenAI;

beforeAll(async () => {
  demo = await startDemoModel({ port: 0, contextWindow: 2000 });
  client = new OpenAI({ baseURL: demo.baseUrl, apiKey: 'none', maxRetries: 0 });
});
afterAll(async () => {
  await demo.close();
});

async function collect(messages: OpenAI.ChatCompletionMessageParam[]) {
  const stream = await client.chat.completions.create({
    model: DEMO_MODEL_ID,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let chunks = 0;
  const calls: { id?: string; name?: string; args: string }[] = [];
  let usage: OpenAI.CompletionUsage | undefined;
  let finish: string | null = null;
  for await (const chunk of stream) {
    chunks++;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (choice.finish_reason) finish = choice.finish_reason;
    text += choice.delta.content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { args: '' });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name = call.function.name;
      slot.args += call.function?.arguments ?? '';
    }
  }
  return { text, calls, usage, finish, chunks };
}

describe('demo model', () => {
  it('lists itself as a model', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain(DEMO_MODEL_ID);
  });

  it('streams a quote of the first line of the latest user message, with usage', async () => {
    const result = await collect([
      { role: 'user', content: 'older question' },
      { role: 'assistant', content: 'older answer' },
      { role: 'user', content: 'hello there\nsecond line' },
    ]);
    expect(result.text).toBe('You said: "hello there"');
    expect(result.finish).toBe('stop');
    expect(result.chunks).toBeGreaterThan(3);
    expect(result.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(result.usage?.completion_tokens).toBe(Math.ceil(result.text.length / 4));
    expect(result.usage?.prompt_tokens_details?.cached_tokens).toBeGreaterThan(0);
  });

  it('answers without streaming too', async () => {
    const completion = await client.chat.completions.create({
      model: DEMO_MODEL_ID,
      messages: [{ role: 'user', content: 'plain' }],
    });
    expect(completion.choices[0]?.message.content).toBe('You said: "plain"');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('turns every /tool line into one tool call of a single message', async () => {
    const result = await collect([
      { role: 'user', content: 'do two things\n/tool read {"path":"a.txt"}\n/tool ls {}' },
    ]);
    expect(result.finish).toBe('tool_calls');
    expect(result.calls.map((c) => c.name)).toEqual(['read', 'ls']);
    expect(JSON.parse(result.calls[0]!.args)).toEqual({ path: 'a.txt' });
    expect(new Set(result.calls.map((c) => c.id)).size).toBe(2);
  });

  it('quotes the first line of each tool result once results are back', async () => {
    const result = await collect([
      { role: 'user', content: '/tool read {"path":"a"}\n/tool ls {}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
          { id: 'c2', type: 'function', function: { name: 'ls', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'alpha\nbeta' },
      { role: 'tool', tool_call_id: 'c2', content: 'x.txt' },
    ]);
    expect(result.text).toBe('Tool results:\n- read: "alpha"\n- ls: "x.txt"');
  });

  it('fails once with the scripted status, then answers', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'flaky\n/fail 503' },
    ];
    await expect(collect(messages)).rejects.toMatchObject({ status: 503 });
    expect((await collect(messages)).text).toBe('You said: "flaky"');
  });

  it('sends Retry-After with a scripted 429', async () => {
    const error = await collect([{ role: 'user', content: 'limited\n/fail 429 250' }]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(429);
    expect(apiError.headers?.get('retry-after-ms')).toBe('250');
    expect(apiError.headers?.get('retry-after')).toBe('1');
  });

  it('answers a request larger than its window with context_length_exceeded', async () => {
    const error = await collect([{ role: 'user', content: 'x'.repeat(9000) }]).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded' });
    expect(String((error as Error).message)).toMatch(/maximum context length is 2000 tokens/);
  });

  it('drops the connection after N chunks when told to /cut', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'a long enough answer to cut\n/cut 3' },
    ];
    await expect(collect(messages)).rejects.toThrow();
    expect((await collect(messages)).text).toBe('You said: "a long enough answer to cut"');
  });

  it('writes a summary in the requested sections, quoting the user requests', async () => {
    const result = await collect([
      {
        role: 'system',
        content: 'You are a context summarization assistant. ONLY output the structured summary.',
      },
      {
        role: 'user',
        content:
          '<conversation>\n[User]: fix the parser\n\n[Assistant]: done\n\n[User]: now add tests\n</conversation>\n\nUse this EXACT format:\n\n## Goal\n[...]\n\n## Progress\n### Done\n- [x] ...\n\n## Next Steps\n1. ...',
      },
    ]);
    expect(result.text).toContain('## Goal\nThe user asked: "fix the parser"');
    expect(result.text).toContain('## Progress\n');
    expect(result.text).toContain('"now add tests"');
    expect(result.text).not.toContain('## Critical Context');
    expect(result.text.indexOf('## Goal')).toBeLessThan(result.text.indexOf('## Next Steps'));
  });

  it('takes system messages mid-conversation, as pi 1.6 sends prompt patches and tools', async () => {
    const call = {
      id: 'call_1',
      type: 'function' as const,
      function: { name: 'read', arguments: '{"path":"a.txt"}' },
    };
    // A patch before the new question: the question is answered, the patch is not a summary.
    const patched = await collect([
      { role: 'system', content: 'You are a coding assistant.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'You said: "first"' },
      { role: 'system', content: 'Updated system prompt section "rules":\n\nsummarize less' },
      { role: 'user', content: 'second\n/tool read {"path":"a.txt"}' },
    ]);
    expect(patched.calls.map((c) => c.name)).toEqual(['read']);
    // One held back until the tool results are in (pi-ai's order): the results are reported.
    const afterResults = await collect([
      { role: 'system', content: 'You are a coding assistant.' },
      { role: 'user', content: 'look' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: 'alpha' },
      { role: 'system', content: 'Updated system prompt section "cwd":\n\n/ws' },
    ]);
    expect(afterResults.text).toBe('Tool results:\n- read: "alpha"');
  });

  it('rejects a malformed request with a clear 400', async () => {
    const response = await fetch(`${demo.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: DEMO_MODEL_ID, messages: 'nope' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/messages/);
  });
});

describe('demo model as a Fastify plugin', () => {
  it('serves the same endpoint under /demo/v1', async () => {
    const app = Fastify();
    await app.register(demoModelPlugin, { prefix: '/demo/v1' });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const pluginClient = new OpenAI({
        baseURL: `${address}/demo/v1`,
        apiKey: 'x',
        maxRetries: 0,
      });
      const stream = await pluginClient.chat.completions.create({
        model: DEMO_MODEL_ID,
        messages: [{ role: 'user', content: 'via fastify' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('You said: "via fastify"');
    } finally {
      await app.close();
    }
  });
});

describe('hostile requests', () => {
  it('reads a megabyte of unclosed conversation tags in linear time', () => {
    // Before, each unclosed tag rescanned the rest: 1.4 MB took 34 s (the test's 5 s limit fails).
    const text = '<conversation>\n[User]: x\n'.repeat(60_000);
    expect(text.length).toBeGreaterThan(1_400_000);
    expect(requestedSections(text)).toEqual(DEFAULT_SECTIONS);
    expect(quotedUserRequests(text)).toHaveLength(60_000);
    const headings = `## a${' '.repeat(200_000)}b\n`;
    expect(requestedSections(headings)).toEqual([`a${' '.repeat(200_000)}b`]);
  });

  it('pauses at most a second between chunks', () => {
    expect(parseDirectives('/slow 100000000').slowMs).toBe(MAX_SLOW_MS);
  });

  it('refuses streams past its limit with a 429, and serves again once they end', async () => {
    const small = await startDemoModel({ maxStreams: 2 });
    try {
      const url = `${small.baseUrl}/chat/completions`;
      const slow = (text: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: DEMO_MODEL_ID,
            stream: true,
            messages: [{ role: 'user', content: `${text}\n/slow 100` }],
          }),
        });
      const held = await Promise.all([slow('one'), slow('two')]);
      expect(held.map((r) => r.status)).toEqual([200, 200]);
      const third = await slow('three');
      expect(third.status).toBe(429);
      await third.body?.cancel();
      await Promise.all(held.map((r) => r.text()));
      expect((await slow('four')).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('forgets the oldest spent faults: their memory is bounded', async () => {
    const small = await startDemoModel({ spentFaultsKept: 3 });
    try {
      const fail = (n: number) =>
        fetch(`${small.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: DEMO_MODEL_ID,
            messages: [{ role: 'user', content: `${n} ${'x'.repeat(100_000)}\n/fail 500` }],
          }),
        }).then(async (response) => {
          await response.body?.cancel();
          return response.status;
        });
      expect(await fail(0)).toBe(500);
      expect(await fail(0)).toBe(200);
      for (const n of [1, 2, 3]) expect(await fail(n)).toBe(500);
      // The first fault was forgotten to make room, so it fires again: nothing is kept forever.
      expect(await fail(0)).toBe(500);
    } finally {
      await small.close();
    }
  });
});
