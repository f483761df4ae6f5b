/*
 * What a recorded system message told the model of the workspace's context files and skills,
 * read back from its `project_context` and `skills` sections as pi 1.6 renders them
 * (buildSystemPromptSections: each section wrapped in `<name>…</name>`; a context file as
 * `<project_instructions path="…">` around its text; skills as formatSkillsForPrompt's
 * `<available_skills>`, with XML escapes). The node shows what the model was given, not what the
 * folder holds now.
 */

export interface RecordedContextFile {
  path: string;
  content: string;
}

export interface RecordedSkill {
  name: string;
  description: string;
  location: string;
}

/** The section's body without pi's `<name>` wrapper (a section without it is taken as it is). */
function unwrap(section: string, name: string): string {
  const open = `<${name}>\n`;
  const close = `\n</${name}>`;
  return section.startsWith(open) && section.endsWith(close)
    ? section.slice(open.length, section.length - close.length)
    : section;
}

const FILE_OPEN = /<project_instructions path="([^"\n]*)">\n/g;
const FILE_CLOSE = '\n</project_instructions>';

/**
 * The context files of a `project_context` section, in order. A file ends where the next one's
 * opening tag starts a paragraph (or at the section's end), so a file that itself mentions the
 * tags mid-line is read whole.
 */
export function recordedContextFiles(section: string): RecordedContextFile[] {
  const body = unwrap(section, 'project_context');
  const opens = [...body.matchAll(FILE_OPEN)].filter(
    (match) => match.index === 0 || body.startsWith('\n\n', match.index - 2),
  );
  return opens.map((match, i) => {
    const start = match.index + match[0].length;
    const next = opens[i + 1];
    let end = next ? next.index - 2 : body.length;
    if (body.startsWith(FILE_CLOSE, end - FILE_CLOSE.length)) end -= FILE_CLOSE.length;
    return { path: match[1]!, content: body.slice(start, Math.max(start, end)) };
  });
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&apos;': "'",
};

function unescapeXml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|apos);/g, (entity) => ENTITIES[entity]!);
}

const SKILL =
  /<skill>\n\s*<name>([^<]*)<\/name>\n\s*<description>([^<]*)<\/description>\n\s*<location>([^<]*)<\/location>\n\s*<\/skill>/g;

/** The skills a `skills` section advertises to the model, in order. */
export function recordedSkills(section: string): RecordedSkill[] {
  return [...unwrap(section, 'skills').matchAll(SKILL)].map((match) => ({
    name: unescapeXml(match[1]!),
    description: unescapeXml(match[2]!),
    location: unescapeXml(match[3]!),
  }));
}
