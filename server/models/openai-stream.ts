import OpenAI from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  emptyUsage,
  type AssistantMessage,
  type StopReason,
  type TextContent,
  type ThinkingContent,
  type ToolCall,
} from '../../shared/messages.js';
import type {
  ModelRequest,
  ModelStreamEvent,
  ModelStreamOutcome,
  ProviderMessage,
  StreamFn,
} from './model-stream.js';
import { costOf, type ModelInfo } from './model-catalog.js';
import { reasoningEffortFor, withoutUnsupportedImages } from './request-capabilities.js';
import { TextGatherer } from './text-gatherer.js';
import { httpFetch } from './http-fetch.js';
import { chatCompletionChunks, ConnectionLostError } from './sse-chunks.js';
import { resolveRequestTranscript, type RequestTranscript } from './request-transcript.js';

/*
 * The stream function over the official `openai` SDK (chat completions, streaming). It maps SDK
 * chunks to Arbor's assistant deltas and never throws for provider trouble: every failure ends as
 * an assistant message with stopReason error/aborted. The SDK's own retries are off; the agent
 * loop retries with backoff and reports it in events.
 */

export const OPENAI_COMPLETIONS_API = 'openai-completions';
export const ABORTED_MESSAGE = 'Request was aborted.';

export function emptyAssistantMessage(model: ModelInfo): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    api: OPENAI_COMPLETIONS_API,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: 'stop',
    timestamp: Date.now(),
  };
}

const clients = new Map<string, OpenAI>();
function clientFor(baseURL: string, apiKey: string): OpenAI {
  const key = `${baseURL}\n${apiKey}`;
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({ baseURL, apiKey, maxRetries: 0, fetch: httpFetch });
    clients.set(key, client);
  }
  return client;
}

const REASONING_FIELDS = ['reasoning_content', 'reasoning', 'reasoning_text'] as const;

/**
 * Provider messages → chat-completions messages, as pi's openai-completions provider sends them.
 * A model that cannot see images gets a note in place of each (see request-capabilities.ts).
 */
export function toOpenAIMessages(
  model: ModelInfo,
  systemPrompt: string,
  messages: ProviderMessage[],
): ChatCompletionMessageParam[] {
  return transcriptMessages(
    model,
    resolveRequestTranscript(model, { systemPrompt, messages, tools: [] }),
  );
}

/** A resolved transcript (request-transcript.ts) as chat-completions messages. */
export function transcriptMessages(
  model: ModelInfo,
  transcript: RequestTranscript,
): ChatCompletionMessageParam[] {
  const messages = withoutUnsupportedImages(model, transcript.messages);
  const out: ChatCompletionMessageParam[] = [];
  const instructionRole = model.reasoning && model.provider === 'openai' ? 'developer' : 'system';
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'system') {
      const text = transcript.instructions.get(message) ?? '';
      if (text.length > 0) out.push({ role: instructionRole, content: text });
    } else if (message.role === 'user') {
      if (typeof message.content === 'string') {
        out.push({ role: 'user', content: message.content });
        continue;
      }
      const parts: ChatCompletionContentPart[] = message.content.map((block) =>
        block.type === 'text'
          ? { type: 'text', text: block.text }
          : {
              type: 'image_url',
              image_url: { url: `data:${block.mimeType};base64,${block.data}` },
            },
      );
      if (parts.length > 0) out.push({ role: 'user', content: parts });
    } else if (message.role === 'assistant') {
      const text = message.content
        .filter((b): b is TextContent => b.type === 'text' && b.text.trim().length > 0)
        .map((b) => b.text)
        .join('');
      const calls = message.content.filter((b): b is ToolCall => b.type === 'toolCall');
      const param: Record<string, unknown> = {
        role: 'assistant',
        content: text.length > 0 ? text : null,
      };
      const thinking = message.content.filter(
        (b): b is ThinkingContent => b.type === 'thinking' && b.thinking.trim().length > 0,
      );
      const field = thinking[0]?.thinkingSignature;
      if (field && (REASONING_FIELDS as readonly string[]).includes(field))
        param[field] = thinking.map((b) => b.thinking).join('\n');
      if (calls.length > 0)
        param.tool_calls = calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
      if (param.content === null && calls.length === 0) continue;
      out.push(param as unknown as ChatCompletionMessageParam);
    } else {
      // A run of tool results; their images follow as one user message.
      const images: ChatCompletionContentPart[] = [];
      let j = i;
      for (; j < messages.length; j++) {
        const result = messages[j]!;
        if (result.role !== 'toolResult') break;
        const text = result.content
          .filter((b): b is TextContent => b.type === 'text')
          .map((b) => b.text)
          .join('\n');
        const hasImages = result.content.some((b) => b.type === 'image');
        out.push({
          role: 'tool',
          tool_call_id: result.toolCallId,
          content: text.length > 0 ? text : hasImages ? '(see attached image)' : '',
        });
        for (const block of result.content)
          if (block.type === 'image')
            images.push({
              type: 'image_url',
              image_url: { url: `data:${block.mimeType};base64,${block.data}` },
            });
      }
      i = j - 1;
      if (images.length > 0)
        out.push({
          role: 'user',
          content: [{ type: 'text', text: 'Attached image(s) from tool result:' }, ...images],
        });
    }
  }
  return out;
}

function mapFinishReason(reason: string): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case 'stop':
    case 'end':
      return { stopReason: 'stop' };
    case 'length':
      return { stopReason: 'length' };
    case 'tool_calls':
    case 'function_call':
      return { stopReason: 'toolUse' };
    default:
      return { stopReason: 'error', errorMessage: `Provider finish_reason: ${reason}` };
  }
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  prompt_cache_hit_tokens?: number;
}

/** Usage as pi counts it: `input` excludes cached tokens; cost from the catalog's prices. */
export function usageFromChunk(raw: RawUsage, model: ModelInfo): AssistantMessage['usage'] {
  const prompt = raw.prompt_tokens ?? 0;
  const cached = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ?? 0;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens ?? 0;
  const cacheRead = cacheWrite > 0 ? Math.max(0, cached - cacheWrite) : cached;
  const input = Math.max(0, prompt - cacheRead - cacheWrite);
  const output = raw.completion_tokens ?? 0;
  const parts = { input, output, cacheRead, cacheWrite };
  return {
    ...parts,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: costOf(model, parts),
  };
}

function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return {};
  }
}

/** Milliseconds a 429/5xx response asks us to wait, from `retry-after-ms` or `retry-after`. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function describeError(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message.replace(/\.$/, '')}${cause}`;
  }
  if (error instanceof ConnectionLostError) return error.message;
  if (error instanceof Error) {
    // A cause the message already tells is not said twice.
    const cause =
      error.cause instanceof Error && !error.message.includes(error.cause.message)
        ? ` (${error.cause.message})`
        : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

interface BlockState {
  index: number;
  /** A text or thinking block's text, written into the message when the block ends. */
  text?: TextGatherer;
  call?: ToolCall & { partialArgs: string };
}

export const openaiStream: StreamFn = async function* (
  request: ModelRequest,
): AsyncGenerator<ModelStreamEvent, ModelStreamOutcome, void> {
  const { model, signal } = request;
  const output = emptyAssistantMessage(model);
  const content = output.content;
  let textBlock: BlockState | undefined;
  let thinkingBlock: BlockState | undefined;
  const callsByIndex = new Map<number, BlockState>();
  const pendingEnds: ModelStreamEvent[] = [];

  const finishBlocks = (): ModelStreamEvent[] => {
    const events: ModelStreamEvent[] = [];
    const blocks = [textBlock, thinkingBlock, ...callsByIndex.values()]
      .filter((b): b is BlockState => b !== undefined)
      .sort((a, b) => a.index - b.index);
    for (const block of blocks) {
      if (block.call) {
        const { partialArgs, ...call } = block.call;
        const finished: ToolCall = { ...call, arguments: parseArguments(partialArgs) };
        content[block.index] = finished;
        events.push({ type: 'toolcall_end', contentIndex: block.index, toolCall: finished });
      } else {
        const done = content[block.index];
        if (done?.type === 'text') done.text = block.text?.text() ?? '';
        else if (done?.type === 'thinking') done.thinking = block.text?.text() ?? '';
        events.push({
          type: done?.type === 'text' ? 'text_end' : 'thinking_end',
          contentIndex: block.index,
        });
      }
    }
    textBlock = undefined;
    thinkingBlock = undefined;
    callsByIndex.clear();
    return events;
  };

  if (!request.apiKey) {
    output.stopReason = 'error';
    output.errorMessage = `No API key for model ${model.id}: set ${model.apiKeyEnv ?? 'OPENAI_API_KEY'} or add "apiKey" to models.json`;
    return { message: output };
  }
  if (!model.baseUrl) {
    output.stopReason = 'error';
    output.errorMessage = `Model ${model.id} has no base URL`;
    return { message: output };
  }

  try {
    const transcript = resolveRequestTranscript(model, request);
    const params: ChatCompletionCreateParamsStreaming & Record<string, unknown> = {
      model: model.id,
      messages: transcriptMessages(model, transcript),
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: Math.min(model.maxOutputTokens, 32_000),
    };
    if (transcript.tools.length > 0)
      params.tools = transcript.tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          parameters: (tool.parameters ?? {}) as Record<string, unknown>,
        },
      }));
    // The level clamped to what the model supports, through its thinking map (pi's rules).
    const effort = reasoningEffortFor(model, request.thinkingLevel);
    if (effort !== undefined) Object.assign(params, { reasoning_effort: effort });

    const response = await clientFor(model.baseUrl, request.apiKey)
      .chat.completions.create(params, { signal })
      .asResponse();
    yield { type: 'start' };
    for await (const chunk of chatCompletionChunks(response, signal)) {
      if (chunk.usage) output.usage = usageFromChunk(chunk.usage as RawUsage, model);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const choiceUsage = (choice as { usage?: RawUsage }).usage;
      if (!chunk.usage && choiceUsage) output.usage = usageFromChunk(choiceUsage, model);
      if (choice.finish_reason) {
        const mapped = mapFinishReason(choice.finish_reason);
        output.stopReason = mapped.stopReason;
        if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
      }
      const delta = choice.delta as (typeof choice.delta & Record<string, unknown>) | undefined;
      if (!delta) continue;
      if (typeof delta.content === 'string' && delta.content.length > 0) {
        if (!textBlock) {
          textBlock = { index: content.length, text: new TextGatherer() };
          content.push({ type: 'text', text: '' });
          yield { type: 'text_start', contentIndex: textBlock.index };
        }
        textBlock.text?.append(delta.content);
        yield { type: 'text_delta', contentIndex: textBlock.index, delta: delta.content };
      }
      const field = REASONING_FIELDS.find((name) => {
        const value = delta[name];
        return typeof value === 'string' && value.length > 0;
      });
      if (field) {
        const text = delta[field] as string;
        if (!thinkingBlock) {
          thinkingBlock = { index: content.length, text: new TextGatherer() };
          content.push({ type: 'thinking', thinking: '', thinkingSignature: field });
          yield { type: 'thinking_start', contentIndex: thinkingBlock.index };
        }
        thinkingBlock.text?.append(text);
        yield { type: 'thinking_delta', contentIndex: thinkingBlock.index, delta: text };
      }
      for (const call of delta.tool_calls ?? []) {
        let block = callsByIndex.get(call.index);
        if (!block) {
          const state: BlockState = {
            index: content.length,
            call: {
              type: 'toolCall',
              id: call.id ?? `call_${call.index}`,
              name: call.function?.name ?? '',
              arguments: {},
              partialArgs: '',
            },
          };
          block = state;
          callsByIndex.set(call.index, state);
          content.push({
            type: 'toolCall',
            id: state.call!.id,
            name: state.call!.name,
            arguments: {},
          });
          yield {
            type: 'toolcall_start',
            contentIndex: state.index,
            id: state.call!.id,
            name: state.call!.name,
          };
        }
        const args = call.function?.arguments ?? '';
        if (args.length > 0) {
          block.call!.partialArgs += args;
          yield { type: 'toolcall_delta', contentIndex: block.index, delta: args };
        }
      }
    }
    for (const event of finishBlocks()) yield event;
    if (signal.aborted) throw new OpenAI.APIUserAbortError();
    return { message: output };
  } catch (error) {
    pendingEnds.push(...finishBlocks());
    for (const event of pendingEnds) yield event;
    output.stopReason = signal.aborted ? 'aborted' : 'error';
    output.errorMessage = signal.aborted ? ABORTED_MESSAGE : describeError(error);
    const wait = error instanceof OpenAI.APIError ? retryAfterMs(error.headers) : undefined;
    return wait === undefined ? { message: output } : { message: output, retryAfterMs: wait };
  }
};
