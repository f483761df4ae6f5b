import { z } from 'zod';

/*
 * What a workspace gives the agent besides its tools, in pi's formats and at pi's locations:
 * context files (AGENTS.md, CLAUDE.md), skills (SKILL.md folders) and prompt templates
 * (prompts/*.md). The server discovers them; the page lists them (the editor's `/` menu, the
 * system-prompt node) from the `get_resources` answer.
 */

/** Where a resource was found: the workspace (and its parents) or the user's data folder. */
export const ResourceScopeSchema = z.enum(['project', 'user']);
export type ResourceScope = z.infer<typeof ResourceScopeSchema>;

/** A context file whose text became part of the system prompt (`project_context`). */
export const ContextFileInfoSchema = z.object({
  path: z.string(),
  scope: ResourceScopeSchema,
  content: z.string(),
});

/** A skill advertised to the model; `/skill:<name> args` in the editor forces it. */
export const SkillInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  path: z.string(),
  scope: ResourceScopeSchema,
  /** pi's `disable-model-invocation`: only `/skill:name` loads it, the prompt does not list it. */
  modelInvocable: z.boolean(),
});

/** A prompt template: `/<name> args` in the editor expands to its text. */
export const PromptTemplateInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The frontmatter's `argument-hint`, shown after the name in the editor's menu. */
  argumentHint: z.string().optional(),
  path: z.string(),
  scope: ResourceScopeSchema,
});

/** A file that was skipped or read with a problem (invalid frontmatter, a name clash, too big). */
export const ResourceWarningSchema = z.object({ path: z.string(), message: z.string() });
export type ResourceWarning = z.infer<typeof ResourceWarningSchema>;

/**
 * The `get_resources` answer for a session's workspace. `loaded` false (with `reason`) when the
 * workspace's resources are switched off (a workspace setting, or an admin's trust decision in team
 * mode); the lists are then empty.
 */
export const WorkspaceResourcesSchema = z.object({
  loaded: z.boolean(),
  reason: z.string().optional(),
  contextFiles: z.array(ContextFileInfoSchema),
  skills: z.array(SkillInfoSchema),
  templates: z.array(PromptTemplateInfoSchema),
  warnings: z.array(ResourceWarningSchema),
});
export type WorkspaceResources = z.infer<typeof WorkspaceResourcesSchema>;
