// Runs under pi 1.6's own Node (see pi16-oracle.ts): writes a session with pi 1.6's
// SessionManager whose usage is spread over two providers, a model that answered under another
// name (responseModel), pi's `usage` entries, a tool's own model call, a compaction and a branch
// summary, on two branches; prints the file and pi's own usage breakdown of the whole session and
// of the active path (usage-totals.js getUsageCostBreakdown), and AgentSession.getSessionStats.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [piIndex, cwd, sessionDir] = process.argv.slice(2);
const { SessionManager, AgentSession } = await import(pathToFileURL(piIndex).href);
const { getUsageCostBreakdown } = await import(
  pathToFileURL(path.join(path.dirname(piIndex), 'core/usage-totals.js')).href
);

const sm = SessionManager.create(cwd, sessionDir, { id: 'stats.kinds_1' });
let clock = 1_800_000_000_000;
const now = () => (clock += 1000);
const usage = (input, output, cacheRead, cacheWrite, cost) => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  totalTokens: input + output + cacheRead + cacheWrite,
  cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
});
const text = (t) => ({ type: 'text', text: t });
const user = (t) => sm.appendMessage({ role: 'user', content: [text(t)], timestamp: now() });
const assistant = (provider, model, u, content = [text('ok')], extra = {}) =>
  sm.appendMessage({
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider,
    model,
    usage: u,
    stopReason: content.some((c) => c.type === 'toolCall') ? 'toolUse' : 'stop',
    timestamp: now(),
    ...extra,
  });

sm.appendModelChange('openai', 'gpt-a');
const u1 = user('first');
assistant('openai', 'gpt-a', usage(1000, 200, 300, 40, 0.0125), [
  text('Calling read.'),
  { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a' } },
  { type: 'toolCall', id: 'c2', name: 'ls', arguments: {} },
]);
sm.appendMessage({
  role: 'toolResult',
  toolCallId: 'c1',
  toolName: 'read',
  content: [text('alpha')],
  isError: false,
  usage: usage(50, 5, 0, 0, 0.0007),
  timestamp: now(),
});
sm.appendMessage({
  role: 'toolResult',
  toolCallId: 'c2',
  toolName: 'ls',
  content: [text('a')],
  isError: false,
  timestamp: now(),
});
const a1 = assistant(
  'openai',
  'gpt-a',
  usage(1300, 80, 1200, 0, 0.0061),
  [text('It says alpha.')],
  {
    responseModel: 'gpt-a-2026',
  },
);
sm.appendUsage('cache_warm', 'openai', 'gpt-a', usage(0, 0, 900, 100, 0.0009), 'warm');
sm.appendModelChange('other', 'big-b');
user('second');
assistant('other', 'big-b', usage(4000, 900, 0, 2000, 0.42));
sm.appendCompaction('Summary.', u1, 5000, undefined, false, usage(3000, 400, 0, 0, 0.03));
user('after');
assistant('other', 'big-b', usage(700, 60, 3000, 0, 0.051));
sm.appendMessage({
  role: 'bashExecution',
  command: 'ls',
  output: 'a',
  exitCode: 0,
  cancelled: false,
  truncated: false,
  timestamp: now(),
});
// Back to the first answer, with a summary of the branch left: the active path.
sm.branchWithSummary(a1, 'We tried big-b.', undefined, false, usage(800, 100, 0, 0, 0.008));
user('other branch');
assistant('openai', 'gpt-a', usage(1500, 120, 1000, 0, 0.0072));
sm.appendUsage('some_new_kind', 'zeta', 'free', usage(0, 0, 0, 0, 0));

process.stdout.write(
  JSON.stringify({
    file: sm.getSessionFile(),
    leafId: sm.getLeafId(),
    session: getUsageCostBreakdown(sm.getEntries()),
    branch: getUsageCostBreakdown(sm.getBranch()),
    // pi's own getSessionStats, on this SessionManager (the rest of a session is not needed).
    stats: AgentSession.prototype.getSessionStats.call({
      sessionManager: sm,
      sessionFile: sm.getSessionFile(),
      sessionId: sm.getSessionId(),
      getContextUsage: () => undefined,
    }),
  }),
);
