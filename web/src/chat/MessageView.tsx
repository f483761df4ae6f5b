import { PencilLine, RotateCcw } from 'lucide-react';
import { memo, use, type ReactNode } from 'react';
import type {
  AgentMessage,
  AssistantMessage,
  ImageContent,
  SystemMessage,
  TextContent,
  ToolResultMessage,
  UserContent,
} from '../../../shared/messages';
import type { ContextEditShown } from '../state/context-edits';
import type { ToolRun } from '../state/session-reducer';
import {
  ContextEditControls,
  ContextEditNote,
  type ContextEditActions,
} from './ContextEditControls';
import { skillInvocation } from '../../../shared/skill-invocation';
import { CopyButton } from '../ui/CopyButton';
import { LazyMarkdown as Markdown } from './LazyMarkdown';
import { MessageActionsContext } from './message-actions';
import { FoldedPre, LongText, PlainText } from './LongText';
import { ToolCallLine } from './ToolCallLine';
import {
  RESOURCE_SECTIONS,
  ResourceSection,
  WorkspaceResourcesNote,
  resourceCounts,
} from './SystemResources';

export interface MessageViewProps {
  entryId: string | null;
  role: string;
  /** Who sent a prompt, when its entry says (decision 112). */
  author?: string | undefined;
  message: AgentMessage | undefined;
  streaming: boolean;
  /** The body could not be had from the server (no longer in the file, or unreadable). */
  unavailable?: boolean;
  /** Live runs of this message's tool calls (only while they run). */
  runs?: ToolRun[] | undefined;
  /** The path's results of this message's tool calls, by call id (their status and duration). */
  results?: ReadonlyMap<string, ToolResultMessage> | undefined;
  /** How the model sees this message when a context edit changed it. */
  contextEdit?: ContextEditShown | undefined;
  /** Present when this user may edit this message's part of the context (decision 064). */
  contextActions?: ContextEditActions | undefined;
}

/** A message's text as a replacement would start from it. */
function textOf(message: AgentMessage): string {
  if (!('content' in message)) return '';
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as { type: string; text?: unknown }[])
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}

function Images({ blocks }: { blocks: ImageContent[] }) {
  if (blocks.length === 0) return null;
  return (
    <div className="message-images">
      {blocks.map((image, i) => (
        <img
          key={i}
          alt={`attached image ${i + 1}`}
          src={`data:${image.mimeType};base64,${image.data}`}
        />
      ))}
    </div>
  );
}

function FoldedPlain({ text }: { text: string }) {
  return (
    <LongText text={text}>
      <PlainText text={text} />
    </LongText>
  );
}

function FoldedMarkdown({ text }: { text: string }) {
  return (
    <LongText text={text}>
      <Markdown text={text} />
    </LongText>
  );
}

/** A `<pre>` of tool input or output, folded when long. */
/** A prompt's text: a skill invocation by the skill's name, anything else as it is. */
function PromptText({ text }: { text: string }) {
  const skill = skillInvocation(text);
  if (!skill) return <FoldedPlain text={text} />;
  return (
    <>
      <details className="skill-call">
        <summary>
          Skill <code>{skill.name}</code>
        </summary>
        <FoldedPlain text={skill.instructions} />
      </details>
      {skill.args ? <FoldedPlain text={skill.args} /> : null}
    </>
  );
}

function UserContentView({ content }: { content: UserContent }) {
  if (typeof content === 'string') return <PromptText text={content} />;
  const texts = content.filter((b): b is TextContent => b.type === 'text');
  const images = content.filter((b): b is ImageContent => b.type === 'image');
  return (
    <>
      {texts.map((block, i) => (
        <PromptText key={i} text={block.text} />
      ))}
      <Images blocks={images} />
    </>
  );
}

function AssistantView({
  message,
  runs,
  results,
}: {
  message: AssistantMessage;
  runs?: ToolRun[] | undefined;
  results?: ReadonlyMap<string, ToolResultMessage> | undefined;
}) {
  return (
    <>
      {message.content.map((block, i) => {
        switch (block.type) {
          case 'thinking':
            return (
              <details key={i} className="thinking">
                <summary>Thinking</summary>
                <FoldedPlain text={block.redacted ? '(redacted)' : block.thinking} />
              </details>
            );
          case 'text':
            return <FoldedMarkdown key={i} text={block.text} />;
          case 'toolCall':
            return (
              <ToolCallLine
                key={i}
                call={block}
                run={runs?.find((r) => r.toolCallId === block.id)}
                result={results?.get(block.id)}
              />
            );
          default:
            return null;
        }
      })}
      {message.stopReason === 'error' ? (
        <div className="message-error">
          Error: {message.errorMessage ?? 'the model call failed'}
        </div>
      ) : null}
      {message.stopReason === 'aborted' ? (
        <div className="message-error">
          Aborted{message.errorMessage ? `: ${message.errorMessage}` : ''}
        </div>
      ) : null}
    </>
  );
}

const ROLE_TITLE: Record<string, string> = {
  user: 'You',
  assistant: 'Assistant',
  toolResult: 'Tool result',
  compactionSummary: 'Compaction',
  branchSummary: 'Branch summary',
  custom: 'Note',
  bashExecution: 'Shell',
  system: 'System prompt',
};

function Body({
  message,
  runs,
  results,
}: {
  message: AgentMessage;
  runs?: ToolRun[] | undefined;
  results?: ReadonlyMap<string, ToolResultMessage> | undefined;
}) {
  switch (message.role) {
    case 'user':
      return <UserContentView content={message.content} />;
    case 'custom':
    case 'hookMessage':
      return (
        <>
          <span className="badge">{message.customType}</span>
          <UserContentView content={message.content} />
        </>
      );
    case 'assistant':
      return <AssistantView message={message} runs={runs} results={results} />;
    case 'toolResult': {
      const text = message.content
        .filter((b): b is TextContent => b.type === 'text')
        .map((b) => b.text)
        .join('\n');
      const images = message.content.filter((b): b is ImageContent => b.type === 'image');
      const first = text.split('\n', 1)[0] ?? '';
      return (
        <details className={`tool-result${message.isError ? ' is-error' : ''}`}>
          <summary>
            <code>{message.toolName}</code> {message.isError ? 'failed' : 'returned'}:{' '}
            <span className="tool-args-short">{first.slice(0, 80)}</span>
          </summary>
          <FoldedPre className="tool-output" text={text} />
          <Images blocks={images} />
        </details>
      );
    }
    case 'bashExecution':
      return (
        <details className="tool-result">
          <summary>
            <code>$ {message.command}</code>
            {message.exitCode ? ` (exit ${message.exitCode})` : ''}
            {message.cancelled ? ' (cancelled)' : ''}
            {message.excludeFromContext ? (
              <span className="badge" title="Run with !!: its output stays out of the context">
                not sent to the model
              </span>
            ) : null}
          </summary>
          <FoldedPre className="tool-output" text={message.output} />
        </details>
      );
    case 'compactionSummary':
      return (
        <details className="summary-card">
          <summary>
            Earlier conversation compacted ({message.tokensBefore.toLocaleString('en')} tokens
            summarised)
          </summary>
          <FoldedMarkdown text={message.summary} />
        </details>
      );
    case 'branchSummary':
      return (
        <details className="summary-card">
          <summary>Summary of the branch left behind</summary>
          <FoldedMarkdown text={message.summary} />
        </details>
      );
    case 'system':
      return <SystemMessageView message={message} />;
  }
}

/** pi 1.6's prompt and tools (or a change to them), closed until opened. */
function SystemMessageView({ message }: { message: SystemMessage }) {
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((block) => block.text).join('\n');
  const sections = Object.entries(message.sections ?? {});
  const added = message.toolsAdded ?? [];
  const removed = message.toolsRemoved ?? [];
  const parts = [
    sections.length ? `${sections.length} section${sections.length === 1 ? '' : 's'}` : '',
    ...resourceCounts(message.sections),
    added.length ? `${added.length} tool${added.length === 1 ? '' : 's'} added` : '',
    removed.length ? `${removed.length} removed` : '',
  ].filter(Boolean);
  return (
    <details className="summary-card system-message">
      <summary>{parts.length ? parts.join(', ') : 'Instructions'}</summary>
      {text ? <FoldedPre className="tool-output" text={text} /> : null}
      {sections.map(([name, body]) =>
        RESOURCE_SECTIONS.has(name) ? (
          <ResourceSection key={name} name={name} body={body} />
        ) : (
          <section key={name}>
            <h4>{name}</h4>
            {body === null ? <p>(removed)</p> : <pre className="tool-output">{body}</pre>}
          </section>
        ),
      )}
      <WorkspaceResourcesNote />
      {added.length || removed.length ? (
        <ul>
          {added.map((tool) => (
            <li key={`+${tool.name}`}>
              <code>{tool.name}</code> {tool.description ?? ''}
            </li>
          ))}
          {removed.map((tool) => (
            <li key={`-${tool.name}`}>
              <del>
                <code>{tool.name}</code>
              </del>{' '}
              removed
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}

const BUSY = 'Wait for the run to end';

/** An icon button that moves the leaf; off while the agent runs. */
function PromptAction(props: {
  name: string;
  title: string;
  idle: boolean;
  onPress(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={props.name}
      title={props.idle ? props.title : BUSY}
      disabled={!props.idle}
      onClick={props.onPress}
    >
      {props.children}
    </button>
  );
}

/** Edit and Rerun on a prompt (as a click on its node), and Copy on a message with text. */
function MessageToolbar({ entryId, message }: { entryId: string; message: AgentMessage }) {
  const actions = use(MessageActionsContext);
  const prompt = message.role === 'user' && actions.canAct;
  const copyable =
    (message.role === 'user' || message.role === 'assistant') && textOf(message).trim() !== '';
  if (!prompt && !copyable) return null;
  return (
    <span className="message-actions">
      {prompt ? (
        <>
          <PromptAction
            name="Edit"
            title="Edit: back to before this prompt, its text in the editor"
            idle={actions.idle}
            onPress={() => actions.edit(entryId)}
          >
            <PencilLine size={14} aria-hidden />
          </PromptAction>
          <PromptAction
            name="Rerun"
            title="Rerun: send this prompt again, as a new branch"
            idle={actions.idle}
            onPress={() => actions.rerun(entryId)}
          >
            <RotateCcw size={14} aria-hidden />
          </PromptAction>
        </>
      ) : null}
      {copyable ? <CopyButton label="Copy" text={() => textOf(message)} /> : null}
    </span>
  );
}

/**
 * One chat message. Memoised on its props: a message that is not streaming keeps the same object
 * and does not re-render while another one streams.
 */
export const MessageView = memo(function MessageView(props: MessageViewProps) {
  const { entryId, role, message, streaming, unavailable, runs, contextEdit, contextActions } =
    props;
  const { userName } = use(MessageActionsContext);
  // Another member's prompt says who sent it; one's own, and one from pi (no author), "You".
  const who = role === 'user' && props.author && props.author !== userName ? props.author : null;
  const loading = !message && !unavailable;
  const edited = contextEdit ? ` context-${contextEdit.kind}` : '';
  return (
    <article
      className={`message role-${role}${streaming ? ' is-streaming' : ''}${loading ? ' is-loading' : ''}${edited}`}
      data-entry-id={entryId ?? 'pending'}
      data-role={role}
      data-context-edit={contextEdit?.kind}
      aria-busy={streaming || loading ? 'true' : undefined}
    >
      <header className="message-head">
        <span className="message-role" title={who ? `Sent by ${who}` : undefined}>
          {who ?? ROLE_TITLE[role] ?? role}
        </span>
        {entryId && message ? <MessageToolbar entryId={entryId} message={message} /> : null}
        {contextActions && entryId && message ? (
          <ContextEditControls
            entryId={entryId}
            originalText={textOf(message)}
            edit={contextEdit}
            actions={contextActions}
          />
        ) : null}
      </header>
      {contextEdit ? <ContextEditNote edit={contextEdit} /> : null}
      {message ? (
        <Body message={message} runs={runs} results={props.results} />
      ) : unavailable ? (
        <div className="unavailable">This message could not be read from the session file.</div>
      ) : (
        <div className="loading">Loading…</div>
      )}
    </article>
  );
});
