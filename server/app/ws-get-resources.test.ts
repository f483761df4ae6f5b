import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceResourcesSchema } from '../../shared/resources.js';
import { writeFile as write } from '../resources/test-support/resource-tree.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * `get_resources` over the real socket: the session's workspace resources as the page lists
 * them (the editor's `/` menu, the files under the system-prompt node), read afresh per answer.
 */

const tests = serverPerTest();

describe('get_resources', () => {
  it("answers the workspace's context files, skills, templates and warnings, read afresh", async () => {
    const server = await tests.start({
      prepare: (dataDir) => {
        const ws = path.join(path.dirname(dataDir), 'ws0');
        write(path.join(ws, 'AGENTS.md'), 'Project rules.\n');
        write(
          path.join(ws, '.pi/skills/deploy/SKILL.md'),
          '---\ndescription: Deploy it.\n---\nSteps.\n',
        );
        write(path.join(ws, '.pi/skills/broken/SKILL.md'), '---\ndescription: [x\n---\n');
        write(
          path.join(ws, '.pi/prompts/fix.md'),
          '---\ndescription: Fix a bug\nargument-hint: <issue>\n---\nFix $1\n',
        );
        write(path.join(dataDir, 'prompts/mine.md'), 'My own template\n');
      },
    });
    const ws = server.workspacePath;
    const client = await tests.open();
    const sessionId = await client.newSession(server.workspaceId);
    const answer = WorkspaceResourcesSchema.parse(
      await client.ok({ type: 'get_resources', sessionId }),
    );
    expect(answer.loaded).toBe(true);
    expect(answer.contextFiles).toEqual([
      { path: path.join(ws, 'AGENTS.md'), scope: 'project', content: 'Project rules.\n' },
    ]);
    expect(answer.skills).toEqual([
      {
        name: 'deploy',
        description: 'Deploy it.',
        path: path.join(ws, '.pi/skills/deploy/SKILL.md'),
        scope: 'project',
        modelInvocable: true,
      },
    ]);
    expect(answer.templates).toEqual([
      {
        name: 'fix',
        description: 'Fix a bug',
        argumentHint: '<issue>',
        path: path.join(ws, '.pi/prompts/fix.md'),
        scope: 'project',
      },
      {
        name: 'mine',
        description: 'My own template',
        path: path.join(server.dataDir, 'prompts/mine.md'),
        scope: 'user',
      },
    ]);
    expect(answer.warnings).toHaveLength(1);
    expect(answer.warnings[0]).toMatchObject({
      path: path.join(ws, '.pi/skills/broken/SKILL.md'),
      message: expect.stringMatching(/^invalid frontmatter: /),
    });

    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Changed rules.\n');
    const again = WorkspaceResourcesSchema.parse(
      await client.ok({ type: 'get_resources', sessionId }),
    );
    expect(again.contextFiles[0]?.content).toBe('Changed rules.\n');
  });
});
