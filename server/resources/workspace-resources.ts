import fs from 'node:fs';
import path from 'node:path';
import type { ResourceWarning, WorkspaceResources } from '../../shared/resources.js';
import { loadContextFiles, type ContextFile } from './context-files.js';
import { loadPromptTemplates, type PromptTemplate, type TemplateRoot } from './prompt-templates.js';
import { loadSkills, type Skill, type SkillRoot } from './skills.js';

/*
 * Everything a workspace gives the agent besides its tools, gathered at pi 1.6's locations:
 * project resources (the workspace's context files, `.pi/skills`, `.agents/skills`, `.pi/prompts`)
 * before user ones (the data folder, pi's agent folder: its AGENTS.md, `skills/`, `prompts/`),
 * as pi ranks them. Read afresh on every call: the files are small and few, and a change shows at
 * the next request. Never throws for what is in the files: problems are `warnings`.
 */

export interface ResourcePolicy {
  /** False: nothing loads, user-level resources included (the workspace's `resources: false`). */
  enabled: boolean;
  /** The workspace's own resources load (team mode: an admin trusted the workspace). */
  projectTrusted: boolean;
  /** Context files and `.agents/skills` above the workspace are read, as pi reads them. */
  parents: boolean;
  /** Shown when `projectTrusted` is false: why, and what would change it. */
  untrustedReason?: string;
  /** Shown when `enabled` is false. */
  disabledReason?: string;
}

export interface LoadedResources {
  contextFiles: ContextFile[];
  skills: Skill[];
  templates: PromptTemplate[];
  warnings: ResourceWarning[];
  loaded: boolean;
  reason?: string;
}

function realDir(dir: string): string | undefined {
  try {
    const real = fs.realpathSync(dir);
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the workspace holds resources of its own that trust would load (context files, a `.pi`
 * or `.agents` folder): an untrusted workspace without any has nothing to say about it.
 */
function holdsOwnResources(workspace: string): boolean {
  return ['AGENTS.md', 'CLAUDE.md', '.pi', path.join('.agents', 'skills')].some((name) =>
    fs.existsSync(path.join(workspace, name)),
  );
}

/** pi's `findGitRepoRoot`: the nearest folder from `dir` up holding `.git`. */
function gitRoot(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    if (fs.existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** pi's `collectAncestorAgentsSkillDirs`, limited to the workspace unless `parents`. */
function agentsSkillRoots(workspace: string, parents: boolean): SkillRoot[] {
  const roots: SkillRoot[] = [];
  const top = parents ? gitRoot(workspace) : workspace;
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    roots.push({
      dir: path.join(dir, '.agents', 'skills'),
      mode: 'agents',
      scope: 'project',
      confine: dir === workspace ? workspace : dir,
    });
    if (dir === top || path.dirname(dir) === dir) break;
  }
  return roots;
}

export function loadWorkspaceResources(opts: {
  /** The workspace's path (resolved to its real path here). */
  workspace: string;
  dataDir: string;
  policy: ResourcePolicy;
}): LoadedResources {
  const { policy } = opts;
  if (!policy.enabled) {
    return {
      contextFiles: [],
      skills: [],
      templates: [],
      warnings: [],
      loaded: false,
      reason: policy.disabledReason ?? 'Resources are switched off for this workspace.',
    };
  }
  const warnings: ResourceWarning[] = [];
  const workspace = policy.projectTrusted ? realDir(opts.workspace) : undefined;
  const dataDir = realDir(opts.dataDir);
  if (!policy.projectTrusted && holdsOwnResources(opts.workspace)) {
    warnings.push({
      path: opts.workspace,
      message:
        policy.untrustedReason ??
        "The workspace's own context files, skills and prompt templates are not loaded.",
    });
  }
  const skillRoots: SkillRoot[] = [];
  const templateRoots: TemplateRoot[] = [];
  if (workspace !== undefined) {
    skillRoots.push({
      dir: path.join(workspace, '.pi', 'skills'),
      mode: 'pi',
      scope: 'project',
      confine: workspace,
    });
    skillRoots.push(...agentsSkillRoots(workspace, policy.parents));
    templateRoots.push({
      dir: path.join(workspace, '.pi', 'prompts'),
      scope: 'project',
      confine: workspace,
    });
  }
  if (dataDir !== undefined) {
    skillRoots.push({
      dir: path.join(dataDir, 'skills'),
      mode: 'pi',
      scope: 'user',
      confine: dataDir,
    });
    templateRoots.push({ dir: path.join(dataDir, 'prompts'), scope: 'user', confine: dataDir });
  }
  const contextFiles = loadContextFiles({ workspace, parents: policy.parents, dataDir }, warnings);
  const skills = loadSkills(skillRoots, warnings);
  const templates = loadPromptTemplates(templateRoots, warnings);
  return { contextFiles, skills, templates, warnings, loaded: true };
}

/** The `get_resources` answer (shared/resources.ts) for what was loaded. */
export function describeResources(loaded: LoadedResources): WorkspaceResources {
  return {
    loaded: loaded.loaded,
    ...(loaded.reason !== undefined ? { reason: loaded.reason } : {}),
    contextFiles: loaded.contextFiles.map(({ path: file, scope, content }) => ({
      path: file,
      scope,
      content,
    })),
    skills: loaded.skills.map((skill) => ({
      name: skill.name,
      description: skill.description,
      path: skill.filePath,
      scope: skill.scope,
      modelInvocable: !skill.disableModelInvocation,
    })),
    templates: loaded.templates.map((template) => ({
      name: template.name,
      description: template.description,
      ...(template.argumentHint !== undefined ? { argumentHint: template.argumentHint } : {}),
      path: template.filePath,
      scope: template.scope,
    })),
    warnings: loaded.warnings,
  };
}
