// Runs under pi 1.6's own Node (see pi16-oracle.ts): writes one session file with pi 1.6's
// SessionManager, using every kind of entry it can append (system messages and their patches,
// usage, context edits, deferred replies, compaction checkpoints, retain-none compaction, branch
// summaries, labels, names, virtual-model state), and prints the file's path.
import { pathToFileURL } from 'node:url';

const [piIndex, cwd, sessionDir] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(piIndex).href);

const sm = SessionManager.create(cwd, sessionDir, { id: 'crafted.kinds_1' });
let clock = 1_800_000_000_000;
const now = () => (clock += 1000);
const usage = (n) => ({
  input: n,
  output: n,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  totalTokens: 2 * n,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const tool = (name) => ({
  name,
  description: `The ${name} tool`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
});
const user = (text) =>
  sm.appendMessage({ role: 'user', content: [{ type: 'text', text }], timestamp: now() });
const assistant = (content, stopReason = 'stop', extra = {}) =>
  sm.appendMessage({
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: 'arbor',
    model: 'arbor-demo',
    usage: usage(5),
    stopReason,
    timestamp: now(),
    ...extra,
  });
const text = (t) => ({ type: 'text', text: t });
const call = (id, name) => ({ type: 'toolCall', id, name, arguments: { path: 'a.txt' } });
const result = (id, name, output, isError = false) =>
  sm.appendMessage({
    role: 'toolResult',
    toolCallId: id,
    toolName: name,
    content: [text(output)],
    isError,
    timestamp: now(),
  });

sm.appendModelChange('arbor', 'arbor-demo');
sm.appendThinkingLevelChange('max');
sm.appendMessage({
  role: 'system',
  content: 'You are a test assistant.',
  sections: { preamble: '<preamble>Be exact.</preamble>', tools: '<tools>read, bash</tools>' },
  toolsAdded: [tool('read'), tool('bash')],
  timestamp: now(),
});
const u1 = user('first question');
assistant([text('Calling read.'), call('c1', 'read')], 'toolUse');
result('c1', 'read', 'alpha');
const a1 = assistant([text('It says alpha.')], 'stop', {
  thinkingLevel: 'max',
  responseModel: 'arbor-demo-2',
  responseId: 'resp-1',
  rawStopReason: 'end_turn',
  durationMs: 12,
});
sm.appendUsage('cache_warm', 'arbor', 'arbor-demo', usage(7), 'kept the cache warm');
sm.appendUsage('some_new_kind', 'arbor', 'arbor-demo', usage(3));
sm.appendMessage({
  role: 'system',
  content: 'Answer briefly from now on.',
  sections: { tools: '<tools>read, write</tools>', preamble: null, extra: '<extra>new</extra>' },
  toolsAdded: [tool('write')],
  toolsRemoved: [{ name: 'bash' }],
  timestamp: now(),
});
const u2 = user('second question');
assistant([text('Calling two.'), call('c2', 'read'), call('c3', 'write')], 'toolUse');
const t2 = result('c2', 'read', 'a long output the user replaced');
const t3 = result('c3', 'write', 'failed', true);
sm.appendContextEdit(t2, { content: 'short output' });
sm.appendContextEdit(u2, { content: 'second question, edited' });
sm.appendContextEdit(t3, { content: [text('first replacement')] });
sm.appendContextEdit(t3, null);
assistant([], 'deferred', {
  deferred: { provider: 'arbor', modelId: 'arbor-demo', api: 'openai-completions', id: 'batch-1' },
});
const cm = sm.appendCustomMessageEntry('ext.note', 'a note for the model', true, { n: 1 });
sm.appendContextEdit(cm, { content: [text('the note, edited')] });
sm.appendLabelChange(u1, 'start');
sm.appendSessionInfo('crafted\nsession');
sm.appendCustomEntry('pi.virtual-model-state', { route: 'fast' });
// A compaction keeping from the second question: the system patch before it is replaced by the
// checkpoint, the edits inside the kept range still count.
sm.appendCompaction(
  'Summary of the start.',
  u2,
  1234,
  { readFiles: [], modifiedFiles: [] },
  false,
  usage(9),
);
user('after compaction');
const a3 = assistant([text('Fine.')]);
sm.appendMessage({
  role: 'system',
  content: '',
  sections: { extra: null },
  toolsAdded: [tool('grep')],
  timestamp: now(),
});
sm.appendContextEdit(a3, { content: 'Fine, edited.' });
user('third');
assistant([text('Third answer.')]);
// Retain none: a compaction that keeps nothing before itself.
sm.appendCompaction('Summary of everything.', null, 4321);
user('after keep-none');
assistant([text('Done.')]);
// Another branch from the first answer, with a summary of what was left: the edits above do not
// reach it.
sm.branchWithSummary(a1, 'We tried the second question.', undefined, false, usage(2));
user('other branch');
const a4 = assistant([text('Other branch answer.'), call('c9', 'read')], 'toolUse');
result('c9', 'read', 'beta');
sm.appendContextEdit(a4, { content: [text('edited on this branch')] });
sm.appendContextEdit(u1, null);
assistant([text('Other branch done.')], 'length');
sm.appendThinkingLevelChange('xhigh');
process.stdout.write(`${sm.getSessionFile()}\n`);
