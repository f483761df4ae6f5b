import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { WorkspaceResources } from '../../../shared/resources';
import { MessageView } from './MessageView';
import { WorkspaceResourcesContext } from './resources-context';

const PROJECT_CONTEXT = [
  '<project_context>',
  'Project-specific instructions and guidelines:',
  '',
  '<project_instructions path="/w/AGENTS.md">',
  'Run <npm test> before you commit.',
  '</project_instructions>',
  '',
  '<project_instructions path="/w/sub/CLAUDE.md">',
  'Be brief.',
  'Say why.',
  '',
  '</project_instructions>',
  '</project_context>',
].join('\n');

const SKILLS = [
  '<skills>',
  'The following skills provide specialized instructions for specific tasks.',
  '<available_skills>',
  '  <skill>',
  '    <name>code-review</name>',
  '    <description>Careful review &amp; notes</description>',
  '    <location>/w/.pi/skills/code-review/SKILL.md</location>',
  '  </skill>',
  '</available_skills>',
  '</skills>',
].join('\n');

function systemNode(sections: Record<string, string | null>, resources?: WorkspaceResources) {
  return renderToStaticMarkup(
    <WorkspaceResourcesContext value={resources ?? null}>
      <MessageView
        entryId="s1"
        role="system"
        message={{ role: 'system', content: '', sections, timestamp: 0 }}
        streaming={false}
      />
    </WorkspaceResourcesContext>,
  );
}

const NONE: WorkspaceResources = {
  loaded: true,
  contextFiles: [],
  skills: [],
  templates: [],
  warnings: [],
};

describe('the system-prompt node', () => {
  it('lists the context files it gave the model, each folded to its path and opened to its text', () => {
    const html = systemNode({ preamble: 'You help.', project_context: PROJECT_CONTEXT });
    expect(html).toContain('2 sections, 2 context files');
    expect(html).toContain('Context files (2)');
    expect(html).toMatch(
      /<details class="context-file"><summary><code>\/w\/AGENTS.md<\/code> <span class="resource-meta">1 line<\/span><\/summary><pre class="tool-output">Run &lt;npm test&gt; before you commit.<\/pre><\/details>/,
    );
    expect(html).toContain(
      '<code>/w/sub/CLAUDE.md</code> <span class="resource-meta">2 lines</span>',
    );
  });

  it('lists the skills it advertised, with description and location', () => {
    const html = systemNode({ skills: SKILLS });
    expect(html).toContain('1 skill');
    expect(html).toContain('Skills advertised (1)');
    expect(html).toContain(
      '<code>code-review</code> Careful review &amp; notes <span class="resource-meta">/w/.pi/skills/code-review/SKILL.md</span>',
    );
  });

  it('says a patch removed the context files', () => {
    expect(systemNode({ project_context: null })).toContain('Context files: none any more');
  });

  it("says why the workspace's resources are not loaded, and lists the files skipped", () => {
    const off = systemNode(
      { preamble: 'You help.' },
      { ...NONE, loaded: false, reason: 'An admin has not trusted this workspace.' },
    );
    expect(off).toContain('<p class="resources-off">An admin has not trusted this workspace.</p>');
    const warned = systemNode(
      { preamble: 'You help.' },
      {
        ...NONE,
        warnings: [
          { path: '/w/.pi/skills/bad/SKILL.md', message: 'the frontmatter is not valid YAML' },
        ],
      },
    );
    expect(warned).toContain('Skipped or read with a problem (1)');
    expect(warned).toContain(
      '<code>/w/.pi/skills/bad/SKILL.md</code>: the frontmatter is not valid YAML',
    );
    expect(systemNode({ preamble: 'You help.' }, NONE)).not.toContain('Workspace resources now');
  });

  it("draws a hostile context file's text and a skill's description as text", () => {
    const hostile = [
      '<project_context>',
      'Project-specific instructions and guidelines:',
      '',
      '<project_instructions path="/w/AGENTS.md">',
      '<img src=x onerror=alert(1)><script>alert(2)</script>',
      '</project_instructions>',
      '</project_context>',
    ].join('\n');
    const skill = SKILLS.replace(
      'Careful review &amp; notes',
      '&lt;img src=x onerror=alert(3)&gt;',
    );
    const html = systemNode({ project_context: hostile, skills: skill });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(3)&gt;');
  });
});
