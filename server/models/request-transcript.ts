import type { SystemMessage, ToolDeclaration } from '../../shared/messages.js';
import {
  currentSystemMessage,
  currentTools,
  systemMessageText,
} from '../../shared/system-prompt.js';
import type { ModelRequest, ProviderMessage } from './model-stream.js';
import type { ModelInfo } from './model-catalog.js';

/*
 * Where a request's prompt and tools go, as pi-ai 1.6's openai-completions provider puts them
 * (`normalizeContext`, `resolveTranscript`, `resolveTranscriptTools` with no in-place tool
 * changes, `convertMessages`). The request's own `systemPrompt` and `tools` lead as a system
 * message; the transcript's system messages patch them. A model that takes mid-conversation
 * system messages gets the leading one as its prompt and every later one, where it stands, as a
 * system message of its own (pi-ai's `renderSystemMessageUpdate`); any other model (pi-ai's
 * default for OpenAI-compatible hosts) gets one leading prompt, the replay of them all. Either
 * way the request's tools are the replay's.
 */

export interface RequestTranscript {
  /** The messages to send; a system message among them is an instruction of its own. */
  messages: ProviderMessage[];
  /** The text of each system message of `messages`, in order (empty: send none). */
  instructions: Map<SystemMessage, string>;
  tools: ToolDeclaration[];
}

function contentText(content: SystemMessage['content']): string {
  return typeof content === 'string' ? content : content.map((block) => block.text).join('\n');
}

/** pi-ai's `renderSystemMessageUpdate`: a later system message, sections framed by name. */
export function renderSystemMessageUpdate(message: SystemMessage): string {
  const parts: string[] = [];
  const text = contentText(message.content);
  if (text.length > 0) parts.push(text);
  for (const [name, value] of Object.entries(message.sections ?? {}))
    parts.push(
      value === null
        ? `Removed system prompt section "${name}".`
        : `Updated system prompt section "${name}":\n\n${value}`,
    );
  return parts.join('\n\n');
}

function isSystem(message: ProviderMessage): message is SystemMessage {
  return message.role === 'system';
}

export function resolveRequestTranscript(
  model: ModelInfo,
  request: Pick<ModelRequest, 'systemPrompt' | 'tools' | 'messages'>,
): RequestTranscript {
  const initial: SystemMessage | undefined =
    request.systemPrompt.length > 0 || request.tools.length > 0
      ? {
          role: 'system',
          content: request.systemPrompt,
          ...(request.tools.length > 0 ? { toolsAdded: request.tools.map((t) => ({ ...t })) } : {}),
          timestamp: 0,
        }
      : undefined;
  let messages = initial ? [initial, ...request.messages] : request.messages;
  if (model.supportsMidConvoSystemMessages !== true) {
    const head = currentSystemMessage(messages);
    const rest = messages.filter((message) => !isSystem(message));
    messages = head ? [head, ...rest] : rest;
  }
  const instructions = new Map<SystemMessage, string>();
  messages.forEach((message, index) => {
    if (!isSystem(message)) return;
    instructions.set(
      message,
      index === 0 ? systemMessageText(message) : renderSystemMessageUpdate(message),
    );
  });
  return { messages, instructions, tools: currentTools(messages) };
}
