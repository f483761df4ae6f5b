import type { AgentMessage } from '../../../shared/messages';
import type { SessionEntry } from '../../../shared/session-entries';

/*
 * The text "Copy text" puts on the clipboard for an entry of the graph: what a person reads in it
 * (a prompt's or an answer's text, a tool's output, a shell command and its output, a summary),
 * never thinking, tool-call JSON or images.
 */

function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as { type?: unknown; text?: unknown }[])
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}

/** What a person reads in a message. */
export function messageCopyText(message: AgentMessage): string {
  switch (message.role) {
    case 'bashExecution':
      return `$ ${message.command}\n${message.output}`;
    case 'compactionSummary':
    case 'branchSummary':
      return message.summary;
    default:
      return 'content' in message ? blocksText(message.content) : '';
  }
}

/** What a person reads in an entry; empty for one with no text of its own (a model change). */
export function entryCopyText(entry: SessionEntry): string {
  switch (entry.type) {
    case 'message':
      return messageCopyText(entry.message as AgentMessage);
    case 'compaction':
    case 'branch_summary':
      return entry.summary;
    case 'custom_message':
      return blocksText(entry.content);
    default:
      return '';
  }
}
