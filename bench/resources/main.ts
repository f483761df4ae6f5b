import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { resourceSections } from '../../server/resources/resource-prompt.js';
import { makeResourceTree } from '../../server/resources/test-support/resource-tree.js';
import { loadWorkspaceResources } from '../../server/resources/workspace-resources.js';
import { PI16_NODE } from '../../server/store/test-support/pi16-oracle.js';

/*
 * Arbor reads a workspace's context files, skills and templates before every model request
 * (decision 085). This measures that read (load + the two prompt sections) on a workspace with
 * 3 context files, 60 skills and 60 templates, against pi 1.6's own loader reload on the same
 * folders (the cost pi pays at `/reload`). Goal: under 5 ms a request.
 */

const PI16 = path.resolve('oracles/pi16/node_modules/@earendil-works/pi-coding-agent');
const ROUNDS = 200;

const tree = makeResourceTree();
try {
  for (let i = 0; i < 50; i++) {
    tree.write(
      path.join(tree.workspace, `.pi/skills/skill-${i}/SKILL.md`),
      `---\ndescription: Skill number ${i}.\n---\n${'Step.\n'.repeat(200)}`,
    );
    tree.write(path.join(tree.workspace, `.pi/prompts/t${i}.md`), `Template ${i}: $@\n`);
  }
  const run = () =>
    resourceSections(
      loadWorkspaceResources({
        workspace: tree.workspace,
        dataDir: tree.dataDir,
        policy: { enabled: true, projectTrusted: true, parents: true },
      }),
      ['read'],
    );
  for (let i = 0; i < 20; i++) run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const arbor = times[times.length >> 1]!;
  const pi = JSON.parse(
    execFileSync(
      PI16_NODE,
      [
        path.join(import.meta.dirname, 'pi16-reload-child.mjs'),
        PI16,
        tree.workspace,
        tree.dataDir,
        String(ROUNDS),
      ],
      { env: { ...process.env, HOME: tree.home, PI_OFFLINE: '1' }, encoding: 'utf8' },
    ),
  ) as { median: number };
  console.log(
    `load + sections, median of ${ROUNDS}: Arbor ${arbor.toFixed(2)} ms (p99 ${times[Math.floor(ROUNDS * 0.99)]!.toFixed(2)} ms), ` +
      `pi 1.6 reload ${pi.median.toFixed(2)} ms, ratio ${(arbor / pi.median).toFixed(2)}; goal < 5 ms ${arbor < 5 ? '✓' : '✗'}`,
  );
} finally {
  fs.rmSync(tree.root, { recursive: true, force: true });
}
