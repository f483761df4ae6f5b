import {
  Check,
  FilePen,
  FileText,
  FolderTree,
  LoaderCircle,
  Search,
  Terminal,
  Wrench,
  X,
  type LucideIcon,
} from 'lucide-react';
import type { ToolCall, ToolResultMessage } from '../../../shared/messages';
import type { ToolRun } from '../state/session-reducer';
import { FoldedPre } from './LongText';
import {
  formatDuration,
  shortArguments,
  toolCallStatus,
  type ToolCallStatus,
} from './tool-call-summary';
import './tool-call.css';

const TOOL_ICONS: Record<string, LucideIcon> = {
  read: FileText,
  write: FilePen,
  edit: FilePen,
  ls: FolderTree,
  bash: Terminal,
  grep: Search,
  find: Search,
};

const STATUS: Record<ToolCallStatus, { icon: LucideIcon | null; label: string }> = {
  running: { icon: LoaderCircle, label: 'running' },
  done: { icon: Check, label: 'done' },
  failed: { icon: X, label: 'failed' },
  unanswered: { icon: null, label: 'not run' },
};

function outputText(content: ToolResultMessage['content'] | undefined): string | undefined {
  if (!content) return undefined;
  return content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n');
}

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}

/**
 * One tool call as one line: the tool's icon and name, its main argument, where it stands and how
 * long it ran; opened, its whole arguments and output.
 */
export function ToolCallLine({
  call,
  run,
  result,
}: {
  call: ToolCall;
  run: ToolRun | undefined;
  result: ToolResultMessage | undefined;
}) {
  const Icon = TOOL_ICONS[call.name] ?? Wrench;
  const status = toolCallStatus(run, result);
  const { icon: StatusIcon, label } = STATUS[status];
  const duration = run?.durationMs ?? result?.durationMs;
  const output = outputText(run?.result?.content ?? result?.content);
  const partial = typeof call.partialArgs === 'string' ? call.partialArgs : undefined;
  return (
    <details className="tool-call" data-tool-call-id={call.id} data-status={status}>
      <summary>
        <Icon className="tool-icon" aria-hidden size={15} />
        <code className="tool-name">{call.name}</code>
        <span className="tool-args-short">{shortArguments(call)}</span>
        <span className="tool-status">
          {StatusIcon ? <StatusIcon aria-hidden size={14} /> : null}
          <span className={StatusIcon ? 'visually-hidden' : undefined}>{label}</span>
        </span>
        {duration !== undefined ? (
          <span className="tool-duration">{formatDuration(duration)}</span>
        ) : null}
      </summary>
      <FoldedPre className="tool-args" text={partial ?? pretty(call.arguments)} />
      {output !== undefined ? <FoldedPre className="tool-output" text={output} /> : null}
    </details>
  );
}
