import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A model server for tests, on loopback, that answers five model APIs in their real streaming
 * wire formats and records every request: OpenAI Chat Completions (`/v1/chat/completions`),
 * OpenAI Responses (`/v1/responses`), Anthropic Messages (`/v1/messages`, with `thinking` and
 * `signature_delta`, `tool_use` and `input_json_delta`) and Google Generative AI
 * (`/v1beta/models/<id>:streamGenerateContent?alt=sse`, with `thought` parts and
 * `thoughtSignature`), and Mistral's chat stream (`/mistral/v1/chat/completions`: Chat Completions'
 * chunks with Mistral's `thinking` content chunks). What it answers is the test's script, one reply per request.
 */

export type RecordedApi =
  | 'openai-completions'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'google-generative-ai'
  | 'mistral-conversations';

export const RECORDED_APIS: readonly RecordedApi[] = [
  'openai-completions',
  'openai-responses',
  'anthropic-messages',
  'google-generative-ai',
  'mistral-conversations',
];

export interface ScriptedToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export type Reply =
  | {
      text?: string;
      thinking?: { text: string; signature: string };
      toolCalls?: ScriptedToolCall[];
      usage?: { input: number; output: number };
    }
  /** An error status, with a Retry-After when given. */
  | { status: number; retryAfter?: string }
  /** Starts an answer, sends one piece of text, and never ends it. */
  | { hold: string };

export interface RecordedRequest {
  api: RecordedApi;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface RecordingModel {
  /** The base URL a model of `api` is given (each SDK adds its own path). */
  baseUrl(api: RecordedApi): string;
  requests: RecordedRequest[];
  /** Replies for the coming requests, in order. */
  script: Reply[];
  close(): Promise<void>;
}

function apiOf(url: URL): RecordedApi | undefined {
  if (url.pathname === '/v1/chat/completions') return 'openai-completions';
  // Mistral's chat stream is Chat Completions' with its own content chunks; its own base path here.
  if (url.pathname === '/mistral/v1/chat/completions') return 'mistral-conversations';
  if (url.pathname === '/v1/responses') return 'openai-responses';
  if (url.pathname === '/v1/messages') return 'anthropic-messages';
  if (/^\/v1beta\/models\/[^/]+:streamGenerateContent$/.test(url.pathname))
    return 'google-generative-ai';
  return undefined;
}

type Send = (event: string | undefined, data: unknown) => void;

interface Answer {
  text?: string;
  thinking?: { text: string; signature: string };
  toolCalls?: ScriptedToolCall[];
  usage?: { input: number; output: number };
}

/** Chat Completions' chunks; Mistral's thinking comes as a content chunk of its own. */
function chatCompletions(send: Send, answer: Answer, model: string, mistral = false): void {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    send(undefined, {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  chunk({ role: 'assistant' });
  if (answer.thinking)
    chunk(
      mistral
        ? {
            content: [
              { type: 'thinking', thinking: [{ type: 'text', text: answer.thinking.text }] },
            ],
          }
        : { reasoning_content: answer.thinking.text },
    );
  if (answer.text) for (const word of answer.text.split(/(?<= )/)) chunk({ content: word });
  answer.toolCalls?.forEach((call, index) => {
    chunk({
      tool_calls: [
        { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
      ],
    });
    chunk({ tool_calls: [{ index, function: { arguments: JSON.stringify(call.args) } }] });
  });
  chunk({}, answer.toolCalls?.length ? 'tool_calls' : 'stop');
  const usage = answer.usage ?? { input: 10, output: 5 };
  send(undefined, {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  });
  send(undefined, '[DONE]');
}

function responses(send: Send, answer: Answer): void {
  const output: unknown[] = [];
  let index = 0;
  const event = (type: string, fields: Record<string, unknown>) => send(type, { type, ...fields });
  event('response.created', { response: { id: 'resp_1', status: 'in_progress', output: [] } });
  if (answer.thinking) {
    const at = index++;
    event('response.output_item.added', {
      output_index: at,
      item: { type: 'reasoning', id: 'rs_1', summary: [] },
    });
    event('response.reasoning_summary_text.delta', {
      output_index: at,
      summary_index: 0,
      delta: answer.thinking.text,
    });
    const item = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: answer.thinking.text }],
      encrypted_content: answer.thinking.signature,
    };
    event('response.output_item.done', { output_index: at, item });
    output.push(item);
  }
  if (answer.text) {
    const at = index++;
    event('response.output_item.added', {
      output_index: at,
      item: { type: 'message', id: 'msg_1', role: 'assistant', content: [], status: 'in_progress' },
    });
    for (const word of answer.text.split(/(?<= )/))
      event('response.output_text.delta', { output_index: at, content_index: 0, delta: word });
    const item = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: answer.text, annotations: [] }],
    };
    event('response.output_item.done', { output_index: at, item });
    output.push(item);
  }
  for (const call of answer.toolCalls ?? []) {
    const at = index++;
    const id = `fc_${at}`;
    event('response.output_item.added', {
      output_index: at,
      item: { type: 'function_call', id, call_id: call.id, name: call.name, arguments: '' },
    });
    const args = JSON.stringify(call.args);
    event('response.function_call_arguments.delta', { output_index: at, delta: args });
    const item = { type: 'function_call', id, call_id: call.id, name: call.name, arguments: args };
    event('response.output_item.done', { output_index: at, item });
    output.push(item);
  }
  const usage = answer.usage ?? { input: 10, output: 5 };
  event('response.completed', {
    response: {
      id: 'resp_1',
      status: 'completed',
      output,
      usage: {
        input_tokens: usage.input,
        output_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    },
  });
}

function anthropic(send: Send, answer: Answer, model: string): void {
  const usage = answer.usage ?? { input: 10, output: 5 };
  const event = (type: string, fields: Record<string, unknown>) => send(type, { type, ...fields });
  event('message_start', {
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1 },
    },
  });
  let index = 0;
  if (answer.thinking) {
    const at = index++;
    event('content_block_start', {
      index: at,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    event('content_block_delta', {
      index: at,
      delta: { type: 'thinking_delta', thinking: answer.thinking.text },
    });
    event('content_block_delta', {
      index: at,
      delta: { type: 'signature_delta', signature: answer.thinking.signature },
    });
    event('content_block_stop', { index: at });
  }
  if (answer.text) {
    const at = index++;
    event('content_block_start', { index: at, content_block: { type: 'text', text: '' } });
    for (const word of answer.text.split(/(?<= )/))
      event('content_block_delta', { index: at, delta: { type: 'text_delta', text: word } });
    event('content_block_stop', { index: at });
  }
  for (const call of answer.toolCalls ?? []) {
    const at = index++;
    event('content_block_start', {
      index: at,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    event('content_block_delta', {
      index: at,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) },
    });
    event('content_block_stop', { index: at });
  }
  event('message_delta', {
    delta: { stop_reason: answer.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  event('message_stop', {});
}

function google(send: Send, answer: Answer): void {
  const parts = (part: Record<string, unknown>) =>
    send(undefined, { candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }] });
  if (answer.thinking)
    parts({
      text: answer.thinking.text,
      thought: true,
      thoughtSignature: answer.thinking.signature,
    });
  if (answer.text) for (const word of answer.text.split(/(?<= )/)) parts({ text: word });
  for (const call of answer.toolCalls ?? [])
    parts({ functionCall: { id: call.id, name: call.name, args: call.args } });
  const usage = answer.usage ?? { input: 10, output: 5 };
  send(undefined, {
    candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + usage.output,
    },
  });
}

function errorBody(api: RecordedApi, status: number): unknown {
  const message = `scripted failure ${status}`;
  if (api === 'anthropic-messages')
    return { type: 'error', error: { type: 'rate_limit_error', message } };
  if (api === 'google-generative-ai')
    return { error: { code: status, message, status: 'RESOURCE_EXHAUSTED' } };
  return { error: { message, type: 'rate_limit_error', code: null, param: null } };
}

export async function startRecordingModel(): Promise<RecordingModel> {
  const requests: RecordedRequest[] = [];
  const script: Reply[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://model');
      const api = apiOf(url);
      if (!api || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such route"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<
        string,
        unknown
      >;
      requests.push({ api, path: url.pathname + url.search, headers: req.headers, body });
      const reply = script.shift() ?? { text: 'no reply scripted' };
      if ('status' in reply) {
        res.writeHead(reply.status, {
          'content-type': 'application/json',
          ...(reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {}),
          // The SDKs would retry a 429 themselves unless told not to; pi-ai's retries are off.
          'x-should-retry': 'false',
        });
        res.end(JSON.stringify(errorBody(api, reply.status)));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send: Send = (event, data) =>
        res.write(
          `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
        );
      const model = typeof body.model === 'string' ? body.model : 'model';
      if ('hold' in reply) {
        // The start of an answer and one piece of text, then nothing until the client goes.
        if (api === 'anthropic-messages') {
          send('message_start', {
            type: 'message_start',
            message: {
              id: 'm',
              type: 'message',
              role: 'assistant',
              model,
              content: [],
              usage: { input_tokens: 1, output_tokens: 1 },
            },
          });
          send('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          });
          send('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: reply.hold },
          });
        } else if (api === 'openai-responses') {
          send('response.created', {
            type: 'response.created',
            response: { id: 'r', status: 'in_progress', output: [] },
          });
          send('response.output_item.added', {
            type: 'response.output_item.added',
            output_index: 0,
            item: { type: 'message', id: 'msg', role: 'assistant', content: [] },
          });
          send('response.output_text.delta', {
            type: 'response.output_text.delta',
            output_index: 0,
            content_index: 0,
            delta: reply.hold,
          });
        } else if (api === 'google-generative-ai') {
          send(undefined, {
            candidates: [{ content: { role: 'model', parts: [{ text: reply.hold }] }, index: 0 }],
          });
        } else {
          send(undefined, {
            id: 'c',
            object: 'chat.completion.chunk',
            created: 0,
            model,
            choices: [{ index: 0, delta: { content: reply.hold }, finish_reason: null }],
          });
        }
        return;
      }
      if (api === 'openai-completions') chatCompletions(send, reply, model);
      else if (api === 'mistral-conversations') chatCompletions(send, reply, model, true);
      else if (api === 'openai-responses') responses(send, reply);
      else if (api === 'anthropic-messages') anthropic(send, reply, model);
      else google(send, reply);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: (api) =>
      api === 'anthropic-messages'
        ? origin
        : api === 'google-generative-ai'
          ? `${origin}/v1beta`
          : api === 'mistral-conversations'
            ? `${origin}/mistral`
            : `${origin}/v1`,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
