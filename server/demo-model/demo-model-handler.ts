import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import {
  ChatRequestSchema,
  computeUsage,
  chunkText,
  decideReply,
  isSummaryRequest,
  latestUserIndex,
  messageText,
  parseDirectives,
  type DemoReply,
  type DemoUsage,
} from './demo-script.js';
import {
  DEFAULT_DEMO_CONTEXT_WINDOW,
  DEMO_MODEL_ID,
  DEMO_PROVIDER,
} from '../models/demo-model-entry.js';

export { DEFAULT_DEMO_CONTEXT_WINDOW, DEMO_MODEL_ID, DEMO_PROVIDER };

/*
 * The HTTP side of the demo model: OpenAI's chat-completions wire format (SSE or one JSON body),
 * the model list, OpenAI-style errors. Works on plain node request/response objects so the same
 * code serves a standalone test server and a route on Arbor's own Fastify server.
 */

export interface DemoModelOptions {
  /** Requests larger than this many prompt tokens get a `context_length_exceeded` error. */
  contextWindow?: number;
  /** Pause between streamed chunks unless the prompt says `/slow N`. */
  chunkDelayMs?: number;
  /** Streams answered at once; past that a 429 (default MAX_STREAMS). */
  maxStreams?: number;
  /** Spent faults remembered (default 10,000). */
  spentFaultsKept?: number;
}

/** Streams the demo model answers at once by default. */
export const MAX_STREAMS = 64;

/** The most a stream pauses in all: `/slow N` over a long answer pauses less per chunk. */
export const STREAM_PAUSE_BUDGET_MS = 30_000;

/** Faults remembered as delivered; the oldest is forgotten first (and may then fire again). */
const SPENT_FAULTS_KEPT = 10_000;

export interface DemoModelHandler {
  /** Answers one request. `path` is relative to the `/v1` mount point (`/chat/completions`). */
  handle(req: IncomingMessage, res: ServerResponse, path: string, body: unknown): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, headers);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createDemoModelHandler(options: DemoModelOptions = {}): DemoModelHandler {
  const contextWindow = options.contextWindow ?? DEFAULT_DEMO_CONTEXT_WINDOW;
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  const maxStreams = options.maxStreams ?? MAX_STREAMS;
  /**
   * Faults already delivered, keyed by a digest of the user message that asked for them, so each
   * fires once: a fixed size per fault however long its message, and a fixed number of faults.
   */
  const spentFaults = new LRUCache<string, true>({
    max: options.spentFaultsKept ?? SPENT_FAULTS_KEPT,
  });
  const spend = (kind: string, key: string): boolean => {
    const digest = createHash('sha256').update(kind).update('\0').update(key).digest('base64');
    if (spentFaults.has(digest)) return false;
    spentFaults.set(digest, true);
    return true;
  };
  let requestCount = 0;
  let streams = 0;

  async function completions(res: ServerResponse, body: unknown): Promise<void> {
    const parsed = ChatRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? issue.path.join('.') || 'body' : 'body';
      sendError(
        res,
        400,
        `Invalid request: ${where}: ${issue?.message ?? 'bad body'}`,
        'invalid_request_error',
        null,
      );
      return;
    }
    const request = parsed.data;
    requestCount++;
    const messages = request.messages;
    const summary = isSummaryRequest(messages);
    const userIndex = latestUserIndex(messages);
    const userText = userIndex >= 0 ? messageText(messages[userIndex]!) : '';
    const directives = summary ? {} : parseDirectives(userText);
    const faultKey = `${userIndex}:${userText}`;

    if (directives.fail && spend('fail', faultKey)) {
      const { status, retryAfterMs } = directives.fail;
      const headers: Record<string, string> = {};
      if (retryAfterMs !== undefined) {
        headers['retry-after-ms'] = String(retryAfterMs);
        headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
      }
      const type =
        status === 429
          ? 'rate_limit_error'
          : status >= 500
            ? 'server_error'
            : 'invalid_request_error';
      sendError(
        res,
        status,
        `Demo model: scripted failure with status ${status}`,
        type,
        null,
        headers,
      );
      return;
    }

    const reply = decideReply(messages, `call_${requestCount}`);
    const usage = computeUsage(messages, request.tools, reply);
    if (usage.prompt_tokens > contextWindow) {
      sendError(
        res,
        400,
        `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${usage.prompt_tokens} tokens. Please reduce the length of the messages.`,
        'invalid_request_error',
        'context_length_exceeded',
      );
      return;
    }

    const id = `chatcmpl-demo-${requestCount}`;
    const created = Math.floor(Date.now() / 1000);
    if (!request.stream) {
      sendJson(res, 200, completionBody(id, created, request.model, reply, usage));
      return;
    }
    if (streams >= maxStreams) {
      sendError(res, 429, 'Demo model: too many streams at once', 'rate_limit_error', null, {
        'retry-after': '1',
      });
      return;
    }
    let cutAfter: number | undefined;
    if (directives.cutAfterChunks !== undefined && spend('cut', faultKey)) {
      cutAfter = directives.cutAfterChunks;
    }
    const chunks = streamChunks(reply, usage, request.stream_options?.include_usage === true);
    const pause = Math.min(
      directives.slowMs ?? chunkDelayMs,
      Math.floor(STREAM_PAUSE_BUDGET_MS / chunks.length),
    );
    streams++;
    try {
      await streamSse(res, id, created, request.model, chunks, pause, cutAfter);
    } finally {
      streams--;
    }
  }

  return {
    async handle(req, res, path, body) {
      const route = path.replace(/\/+$/, '');
      if (req.method === 'GET' && route === '/models') {
        sendJson(res, 200, {
          object: 'list',
          data: [{ id: DEMO_MODEL_ID, object: 'model', created: 0, owned_by: 'arbor' }],
        });
        return;
      }
      if (req.method === 'POST' && route === '/chat/completions') {
        await completions(res, body);
        return;
      }
      sendError(
        res,
        404,
        `Unknown route ${req.method ?? ''} ${path}`,
        'invalid_request_error',
        'not_found',
      );
    },
  };
}

type Delta = Record<string, unknown>;
interface StreamChunk {
  delta?: Delta;
  finish?: 'stop' | 'tool_calls';
  usage?: DemoUsage;
}

function streamChunks(reply: DemoReply, usage: DemoUsage, includeUsage: boolean): StreamChunk[] {
  const chunks: StreamChunk[] = [{ delta: { role: 'assistant', content: '' } }];
  for (const piece of chunkText(reply.text)) chunks.push({ delta: { content: piece } });
  if (reply.kind === 'tools') {
    reply.toolCalls.forEach((call, index) => {
      chunks.push({
        delta: {
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        },
      });
      const half = Math.ceil(call.arguments.length / 2);
      for (const part of [call.arguments.slice(0, half), call.arguments.slice(half)])
        if (part.length > 0)
          chunks.push({ delta: { tool_calls: [{ index, function: { arguments: part } }] } });
    });
  }
  chunks.push({ delta: {}, finish: reply.kind === 'tools' ? 'tool_calls' : 'stop' });
  if (includeUsage) chunks.push({ usage });
  return chunks;
}

async function streamSse(
  res: ServerResponse,
  id: string,
  created: number,
  model: string,
  chunks: StreamChunk[],
  delayMs: number,
  cutAfter: number | undefined,
): Promise<void> {
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  let written = 0;
  for (const chunk of chunks) {
    if (closed) return;
    if (cutAfter !== undefined && written >= cutAfter) {
      // A network fault: the peer vanishes mid-message without a final chunk.
      res.socket?.destroy();
      res.destroy();
      return;
    }
    const body = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: chunk.usage
        ? []
        : [{ index: 0, delta: chunk.delta ?? {}, finish_reason: chunk.finish ?? null }],
      ...(chunk.usage ? { usage: chunk.usage } : {}),
    };
    res.write(`data: ${JSON.stringify(body)}\n\n`);
    written++;
    if (delayMs > 0) await sleep(delayMs);
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (closed) return;
  res.end('data: [DONE]\n\n');
}

function completionBody(
  id: string,
  created: number,
  model: string,
  reply: DemoReply,
  usage: DemoUsage,
) {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text };
  if (reply.kind === 'tools')
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message,
        finish_reason: reply.kind === 'tools' ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage,
  };
}
