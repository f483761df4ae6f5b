/*
 * A prompt that invoked a skill (`/skill:name args`) reaches the model as pi 1.6 expands it
 * (`_expandSkillCommand`): the skill's instructions in a `<skill name="…" location="/absolute/path">`
 * block, then the arguments. The server writes it (server/resources/resource-prompt.ts); the chat
 * shows it by the skill's name, its instructions folded, and the arguments as the prompt, never
 * the block's markup or the server's path. One format, written and read here.
 */

/** The text a skill invocation becomes, as pi writes it. */
export function skillBlock(skill: {
  name: string;
  filePath: string;
  baseDir: string;
  body: string;
  args: string;
}): string {
  const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${skill.body}\n</skill>`;
  return skill.args ? `${block}\n\n${skill.args}` : block;
}

export interface SkillInvocation {
  name: string;
  /** The skill's instructions as the model got them, without pi's "References are relative…" line. */
  instructions: string;
  /** What the user typed after `/skill:name`. */
  args: string;
}

const BLOCK =
  /^<skill name="([^"\n]*)" location="[^"\n]*">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]*))?$/;
const REFERENCES = /^References are relative to [^\n]*\n\n?/;

/** The skill invocation a prompt's text holds, or null when it is not one. */
export function skillInvocation(text: string): SkillInvocation | null {
  const match = BLOCK.exec(text);
  if (!match) return null;
  return {
    name: match[1]!,
    instructions: match[2]!.replace(REFERENCES, ''),
    args: match[3] ?? '',
  };
}
