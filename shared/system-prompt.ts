import type { AgentMessage, SystemMessage, ToolDeclaration } from './messages.js';

/*
 * The prompt and tools in force after a transcript's system messages (pi 1.6 records them in the
 * session: the first with the base prompt, every section and every tool; later ones as patches).
 * pi-ai 1.6's `getCurrentTools`, `getCurrentSystemMessage` and `getSystemMessageText`, rule for
 * rule: later `content` is appended to the base prompt, `sections` are patched by name (`null`
 * removes one, a new name goes last), tools are added and removed by name.
 */

function isSystem(message: AgentMessage): message is SystemMessage {
  return message.role === 'system';
}

function textOf(content: SystemMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((block) => block.text).join('\n');
}

/** The tools available after every system message of `messages`, in order of declaration. */
export function currentTools(messages: readonly AgentMessage[]): ToolDeclaration[] {
  const tools = new Map<string, ToolDeclaration>();
  for (const message of messages) {
    if (!isSystem(message)) continue;
    for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
  }
  return [...tools.values()];
}

/**
 * Every system message of `messages` replayed into one: the prompt and tools in force at their
 * end. Undefined when there is no system message and no tool.
 */
export function currentSystemMessage(messages: readonly AgentMessage[]): SystemMessage | undefined {
  const content: string[] = [];
  const sections = new Map<string, string>();
  let timestamp: number | undefined;
  for (const message of messages) {
    if (!isSystem(message)) continue;
    timestamp ??= message.timestamp;
    const text = textOf(message.content);
    if (text.length > 0) content.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
  }
  const tools = currentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: 'system',
    content: content.join('\n\n'),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/** A system message as one prompt text: its content, then its sections (pi-ai's rendering). */
export function systemMessageText(message: SystemMessage): string {
  const parts = [textOf(message.content)];
  for (const text of Object.values(message.sections ?? {})) if (text !== null) parts.push(text);
  return parts.filter((part) => part.length > 0).join('\n\n');
}
