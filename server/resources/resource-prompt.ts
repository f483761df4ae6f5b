import type { ContextFile } from './context-files.js';
import { readConfined } from './confined-read.js';
import { parseFrontmatter } from './frontmatter.js';
import { expandPromptTemplate } from './prompt-templates.js';
import type { Skill } from './skills.js';
import type { LoadedResources } from './workspace-resources.js';
import { skillBlock } from '../../shared/skill-invocation.js';

/*
 * What the resources put into the conversation, in pi 1.6's words: the `project_context` and
 * `skills` sections of the system prompt (system-prompt.js `buildSystemPromptSections`, each
 * wrapped in `<name>…</name>`; skills.js `formatSkillsForPrompt`), and the user message of a
 * `/skill:name args` or `/template args` (agent-session.js `_expandSkillCommand`,
 * prompt-templates.js `expandPromptTemplate`).
 */

function wrap(name: string, content: string): string {
  return `<${name}>\n${content}\n</${name}>`;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function renderProjectContext(files: readonly ContextFile[]): string {
  return [
    'Project-specific instructions and guidelines:',
    ...files.map(
      ({ path, content }) =>
        `<project_instructions path="${path}">\n${content}\n</project_instructions>`,
    ),
  ].join('\n\n');
}

/** pi's `formatSkillsForPrompt` (trimmed, as buildSystemPromptSections uses it). */
function renderSkills(skills: readonly Skill[], reader: 'read' | 'bash'): string {
  const visible = skills.filter((skill) => !skill.disableModelInvocation);
  if (visible.length === 0) return '';
  const lines = [
    'The following skills provide specialized instructions for specific tasks.',
    reader === 'read'
      ? "Use the read tool to load a skill's file when the task matches its description."
      : "Use bash to load a skill's file when the task matches its description.",
    "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
    '',
    '<available_skills>',
  ];
  for (const skill of visible) {
    lines.push('  <skill>');
    lines.push(`    <name>${escapeXml(skill.name)}</name>`);
    lines.push(`    <description>${escapeXml(skill.description)}</description>`);
    lines.push(`    <location>${escapeXml(skill.filePath)}</location>`);
    lines.push('  </skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n').trim();
}

/**
 * The `project_context` and `skills` sections (in that order, each only when it has content).
 * Skills are advertised only when a tool can read their files (`read`, else `bash`), as in pi.
 */
export function resourceSections(
  loaded: LoadedResources,
  toolNames: readonly string[],
): Record<string, string> {
  const sections: Record<string, string> = {};
  if (loaded.contextFiles.length > 0)
    sections.project_context = wrap('project_context', renderProjectContext(loaded.contextFiles));
  const reader = (['read', 'bash'] as const).find((tool) => toolNames.includes(tool));
  if (reader && loaded.skills.length > 0) {
    const skills = renderSkills(loaded.skills, reader);
    if (skills) sections.skills = wrap('skills', skills);
  }
  return sections;
}

/**
 * pi's `_expandSkillCommand`: `/skill:name args` of a known skill becomes its instructions (the
 * file read again now, frontmatter removed) in a `<skill>` block, the arguments after it. An
 * unknown skill, or one that cannot be read, leaves the text as it is.
 */
export function expandSkillCommand(text: string, skills: readonly Skill[]): string {
  if (!text.startsWith('/skill:')) return text;
  const space = text.indexOf(' ');
  const name = space === -1 ? text.slice(7) : text.slice(7, space);
  const args = space === -1 ? '' : text.slice(space + 1).trim();
  const skill = skills.find((s) => s.name === name);
  if (!skill) return text;
  const read = readConfined(skill.filePath, skill.confine);
  if (!read.ok) return text;
  let body: string;
  try {
    body = parseFrontmatter(read.text).body.trim();
  } catch {
    return text;
  }
  return skillBlock({ ...skill, body, args });
}

/** What a typed message becomes before it is a user message: skill first, then template (pi). */
export function expandInput(text: string, loaded: LoadedResources): string {
  return expandPromptTemplate(expandSkillCommand(text, loaded.skills), loaded.templates);
}
