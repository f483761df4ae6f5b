import OpenAI from 'openai';
import type { AssistantMessage } from '../../../shared/messages.js';
import { emptyUsage } from '../../../shared/messages.js';
import type { CompleteFn, SummaryCompletionRequest } from '../summary-model.js';

/*
 * A `CompleteFn` over the real `openai` client, for tests that ask the demo model for summaries
 * over HTTP. It records every request it sends, so tests can check what the model was asked.
 */

export interface RecordingComplete {
  complete: CompleteFn;
  requests: SummaryCompletionRequest[];
  /** Prompt tokens the model reported, per answered request. */
  promptTokens: number[];
}

export function demoComplete(baseUrl: string, model = 'arbor-demo'): RecordingComplete {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'demo', maxRetries: 0 });
  const requests: SummaryCompletionRequest[] = [];
  const promptTokens: number[] = [];
  const complete: CompleteFn = async (request, signal) => {
    requests.push(request);
    const base: AssistantMessage = {
      role: 'assistant',
      content: [],
      api: 'openai-completions',
      provider: 'arbor',
      model,
      usage: emptyUsage(),
      stopReason: 'stop',
      timestamp: Date.now(),
    };
    try {
      const stream = await client.chat.completions.create(
        {
          model,
          stream: true,
          stream_options: { include_usage: true },
          max_tokens: request.maxTokens,
          messages: [
            { role: 'system', content: request.systemPrompt },
            ...request.messages.map((message) => ({
              role: 'user' as const,
              content:
                typeof message.content === 'string'
                  ? message.content
                  : message.content
                      .map((block) => (block.type === 'text' ? block.text : ''))
                      .join(''),
            })),
          ],
        },
        signal ? { signal } : {},
      );
      let text = '';
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) promptTokens.push(chunk.usage.prompt_tokens);
      }
      return { ...base, content: [{ type: 'text', text }] };
    } catch (error) {
      if (signal?.aborted) return { ...base, stopReason: 'aborted', errorMessage: 'aborted' };
      return {
        ...base,
        stopReason: 'error',
        errorMessage: error instanceof Error ? error.message : String(error),
      };
    }
  };
  return { complete, requests, promptTokens };
}
