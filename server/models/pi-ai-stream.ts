import {
  streamSimple,
  type AssistantMessageEvent as PiEvent,
  type Context,
  type SimpleStreamOptions,
} from '@earendil-works/pi-ai/compat';
import { emptyUsage, type AssistantMessage, type ToolCall } from '../../shared/messages.js';
import type {
  ModelRequest,
  ModelStreamEvent,
  ModelStreamOutcome,
  StreamFn,
} from './model-stream.js';
import type { ModelInfo } from './model-catalog.js';
import { httpFetch } from './http-fetch.js';
import { OPENAI_COMPLETIONS_API, piModelOf } from './pi-model.js';
import { retryAfterMs } from './retry-after.js';

/*
 * The stream function over pi's own model layer, `@earendil-works/pi-ai` (the version the pi
 * oracle runs): pi-ai builds the request for the model's API (messages, tools, thinking levels,
 * compat flags, cache markers), parses the provider's stream, counts usage and cost as pi does, and
 * hands back pi's assistant message, which is Arbor's session format field for field. This file
 * only maps a catalog entry to pi-ai's model, pi-ai's events to the agent loop's, and keeps the
 * contract of model-stream.ts: it never throws for provider trouble, and a 429's Retry-After
 * reaches the agent loop, which retries (pi-ai's own retries are off).
 */

export const ABORTED_MESSAGE = 'Request was aborted.';

export function emptyAssistantMessage(model: ModelInfo): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    api: model.api ?? OPENAI_COMPLETIONS_API,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: 'stop',
    timestamp: Date.now(),
  };
}

/** pi-ai's event as the agent loop's (the same fields, without pi-ai's running `partial`). */
function eventOf(event: PiEvent): ModelStreamEvent | undefined {
  switch (event.type) {
    case 'start':
      return { type: 'start' };
    case 'text_start':
    case 'thinking_start':
    case 'text_end':
    case 'thinking_end':
      return { type: event.type, contentIndex: event.contentIndex };
    case 'text_delta':
    case 'thinking_delta':
    case 'toolcall_delta':
      return { type: event.type, contentIndex: event.contentIndex, delta: event.delta };
    case 'toolcall_start': {
      const call = event.partial.content[event.contentIndex];
      return {
        type: 'toolcall_start',
        contentIndex: event.contentIndex,
        id: call?.type === 'toolCall' ? call.id : '',
        name: call?.type === 'toolCall' ? call.name : '',
      };
    }
    case 'toolcall_end':
      return {
        type: 'toolcall_end',
        contentIndex: event.contentIndex,
        toolCall: event.toolCall as ToolCall,
      };
    default:
      return undefined;
  }
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}

function failed(model: ModelInfo, errorMessage: string): ModelStreamOutcome {
  return { message: { ...emptyAssistantMessage(model), stopReason: 'error', errorMessage } };
}

export const piAiStream: StreamFn = async function* (
  request: ModelRequest,
): AsyncGenerator<ModelStreamEvent, ModelStreamOutcome, void> {
  const { signal, auth } = request;
  // A subscription may name its account's own endpoint (GitHub Copilot), as pi-ai applies it.
  const model = auth.baseUrl ? { ...request.model, baseUrl: auth.baseUrl } : request.model;
  if (auth.problem) return failed(model, auth.problem);
  if (!auth.apiKey && !auth.headers) {
    return failed(
      model,
      `No API key for model ${model.provider}/${model.id}: ${model.apiKeyEnv ? `set ${model.apiKeyEnv}, ` : ''}add "apiKey" to models.json or save a key for ${model.provider}`,
    );
  }
  if (!model.baseUrl) return failed(model, `Model ${model.provider}/${model.id} has no base URL`);
  // The last response of this request: an error status never reaches pi-ai's onResponse, and
  // its Retry-After is what the agent loop waits.
  let response: Response | undefined;
  const fetchOnce: typeof fetch = async (input, init) => {
    response = await httpFetch(input, init);
    return response;
  };
  const context: Context = {
    systemPrompt: request.systemPrompt,
    messages: request.messages as Context['messages'],
    tools: request.tools as Context['tools'],
  };
  const options: SimpleStreamOptions = {
    ...(auth.apiKey ? { apiKey: auth.apiKey } : {}),
    ...(auth.headers ? { headers: auth.headers } : {}),
    signal,
    fetch: fetchOnce,
    maxRetries: 0,
    ...(request.thinkingLevel !== 'off'
      ? { reasoning: request.thinkingLevel as SimpleStreamOptions['reasoning'] }
      : {}),
  };
  let stream;
  try {
    stream = streamSimple(piModelOf(model), context, options);
  } catch (error) {
    return failed(model, error instanceof Error ? error.message : String(error));
  }
  try {
    for await (const event of stream) {
      if (event.type === 'done') return { message: event.message as AssistantMessage };
      if (event.type === 'error') {
        const message = event.error as AssistantMessage;
        if (message.stopReason === 'aborted' || signal.aborted) {
          return { message: { ...message, stopReason: 'aborted', errorMessage: ABORTED_MESSAGE } };
        }
        const wait =
          response && response.status >= 400
            ? retryAfterMs(headerRecord(response.headers))
            : undefined;
        return wait === undefined ? { message } : { message, retryAfterMs: wait };
      }
      const mapped = eventOf(event);
      if (mapped) yield mapped;
    }
  } catch (error) {
    // pi-ai ends its streams with an error event; anything thrown is still the provider's trouble.
    return failed(model, error instanceof Error ? error.message : String(error));
  }
  // A stream that ended without its last event: the provider went away.
  return failed(model, 'The model stream ended without an answer');
};
