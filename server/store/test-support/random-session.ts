import type { SessionStore } from '../session-store.js';
import {
  assistantMessage,
  bashMessage,
  customMessage,
  toolResultMessage,
  userMessage,
} from '../../test-support/messages.js';
import { prng } from '../../../shared/prng.js';

/**
 * Drives `store` through `steps` random operations covering every append type and every leaf
 * move: turns with tool calls, branches, resetLeaf roots, summaries, compactions, labels, names,
 * custom entries and messages, model and thinking changes.
 */
export function randomSession(store: SessionStore, seed: number, steps: number): void {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const ids = (): string[] => store.getTree().map((node) => node.id);
  let call = 0;
  for (let step = 0; step < steps; step++) {
    const r = random();
    const existing = ids();
    if (r < 0.25 || existing.length === 0) {
      store.appendMessage(
        userMessage(`question ${step} ${'lorem '.repeat(Math.floor(random() * 5))}`),
      );
      if (random() < 0.5) {
        const id = `call_${call++}`;
        store.appendMessage(
          assistantMessage('', { toolCalls: [{ id, name: 'bash', args: { c: step } }] }),
        );
        store.appendMessage(toolResultMessage(id, `out ${step}`, random() < 0.2));
      }
      store.appendMessage(
        assistantMessage(`answer ${step}`, {
          stopReason: random() < 0.1 ? 'aborted' : 'stop',
          model: pick(['m1', 'm2']),
        }),
      );
    } else if (r < 0.4) {
      store.branch(pick(existing));
    } else if (r < 0.45) {
      store.resetLeaf();
    } else if (r < 0.52) {
      store.branchWithSummary(
        random() < 0.2 ? null : pick(existing),
        random() < 0.2 ? '' : `summary ${step}`,
        {
          readFiles: [],
          modifiedFiles: [],
        },
        false,
      );
    } else if (r < 0.6) {
      const path = store.getBranch();
      const kept = path.length > 0 ? pick(path).id : pick(existing);
      store.appendCompaction(`compacted ${step}`, kept, 1000 + step, undefined, random() < 0.3);
    } else if (r < 0.68) {
      store.appendLabelChange(pick(existing), random() < 0.3 ? undefined : `label ${step}`);
    } else if (r < 0.72) {
      store.appendSessionInfo(`name ${step}`);
    } else if (r < 0.78) {
      store.appendCustomEntry('ext-state', { step });
    } else if (r < 0.84) {
      store.appendMessage(customMessage(`note ${step}`));
    } else if (r < 0.88) {
      store.appendCustomMessageEntry('hidden', [{ type: 'text', text: `hidden ${step}` }], false, {
        step,
      });
    } else if (r < 0.92) {
      store.appendModelChange(pick(['p1', 'p2']), pick(['m3', 'm4']));
    } else if (r < 0.96) {
      store.appendThinkingLevelChange(pick(['off', 'low', 'high']));
    } else {
      store.appendMessage(bashMessage(`echo ${step}`, `${step}\n`));
    }
  }
}
