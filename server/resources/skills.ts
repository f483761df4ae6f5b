import fs from 'node:fs';
import path from 'node:path';
import type { ResourceScope, ResourceWarning } from '../../shared/resources.js';
import { entryKind, listDir, readConfined } from './confined-read.js';
import { parseFrontmatter } from './frontmatter.js';
import { addIgnoreRules, isIgnored, newIgnore } from './ignore-rules.js';

/*
 * Skills as pi 1.6 discovers and validates them (package-manager.js `collectSkillEntries`,
 * skills.js `loadSkillFromFile`; the Agent Skills specification): a folder holding SKILL.md is a
 * skill and is not searched further; otherwise its sub-folders are. In a `.pi/skills` folder (and
 * the data folder's `skills/`) a top-level `.md` file is a skill too; in `.agents/skills` only
 * `.md` files below the top are. Dot entries and node_modules are passed over. A skill needs a
 * description; a bad name or a long description is a warning, the skill still loads.
 */

export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md (or .md) file. */
  filePath: string;
  /** Its folder: the skill's relative references resolve against it. */
  baseDir: string;
  scope: ResourceScope;
  /** pi's `disable-model-invocation: true`: left out of the prompt, only `/skill:name` loads it. */
  disableModelInvocation: boolean;
  /** The folder the file was found under, which reading it again may not leave. */
  confine: string;
}

/** Where to look: a skills folder, its layout rule and the folder nothing may lead out of. */
export interface SkillRoot {
  dir: string;
  mode: 'pi' | 'agents';
  scope: ResourceScope;
  /** A real path: files whose real path lies outside are skipped with a warning. */
  confine: string;
}

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;
/** Bounds on one walk, so a huge or looping tree of folders costs little. */
const MAX_DEPTH = 8;
const MAX_FILES = 500;

function collectEntries(root: SkillRoot, warnings: ResourceWarning[]): string[] {
  const files: string[] = [];
  const ig = newIgnore();
  const visit = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || files.length >= MAX_FILES) return;
    const entries = listDir(dir);
    if (entries.length === 0) return;
    addIgnoreRules(
      ig,
      dir,
      entries.map((entry) => entry.name),
      root.dir,
      root.confine,
    );
    const skillFile = entries.find((entry) => entry.name === 'SKILL.md');
    if (skillFile) {
      const kind = entryKind(dir, skillFile, root.confine);
      const ignored = isIgnored(ig, root.dir, path.join(dir, 'SKILL.md'), false);
      if (kind === 'file' && !ignored) {
        files.push(path.join(dir, 'SKILL.md'));
        return;
      }
      if (kind === 'outside')
        warnings.push({
          path: path.join(dir, 'SKILL.md'),
          message: `SKILL.md leads outside ${root.confine}; not read`,
        });
    }
    for (const entry of entries) {
      if (entry === skillFile) continue; // a SKILL.md that is no file here is no skill either
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      const kind = entryKind(dir, entry, root.confine);
      if (kind === 'outside') {
        warnings.push({
          path: full,
          message: `${entry.name} leads outside ${root.confine}; not read`,
        });
        continue;
      }
      if (kind !== 'other' && isIgnored(ig, root.dir, full, kind === 'directory')) continue;
      const topLevel = dir === root.dir;
      if (
        kind === 'file' &&
        entry.name.endsWith('.md') &&
        ((root.mode === 'pi' && topLevel) || (root.mode === 'agents' && !topLevel))
      ) {
        files.push(full);
        continue;
      }
      if (kind === 'directory') visit(full, depth + 1);
    }
  };
  visit(root.dir, 0);
  return files;
}

function nameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > MAX_NAME_LENGTH)
    problems.push(`name exceeds ${MAX_NAME_LENGTH} characters (${name.length})`);
  if (!/^[a-z0-9-]+$/.test(name))
    problems.push('name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)');
  if (name.startsWith('-') || name.endsWith('-'))
    problems.push('name must not start or end with a hyphen');
  if (name.includes('--')) problems.push('name must not contain consecutive hyphens');
  return problems;
}

function descriptionProblems(description: unknown): string[] {
  if (typeof description !== 'string' || description.trim() === '')
    return ['description is required'];
  if (description.length > MAX_DESCRIPTION_LENGTH)
    return [`description exceeds ${MAX_DESCRIPTION_LENGTH} characters (${description.length})`];
  return [];
}

function loadSkillFile(
  file: string,
  root: SkillRoot,
  warnings: ResourceWarning[],
): Skill | undefined {
  const declared = path.basename(file) === 'SKILL.md';
  const read = readConfined(file, root.confine);
  if (!read.ok) {
    warnings.push({ path: file, message: `${path.basename(file)} ${read.problem}` });
    return undefined;
  }
  let frontmatter: Record<string, unknown>;
  try {
    ({ frontmatter } = parseFrontmatter(read.text));
  } catch (error) {
    if (declared)
      warnings.push({ path: file, message: `invalid frontmatter: ${(error as Error).message}` });
    return undefined;
  }
  const description = frontmatter.description;
  const hasDescription = typeof description === 'string' && description.trim() !== '';
  if (!declared && !hasDescription) return undefined;
  const baseDir = path.dirname(file);
  const name = (typeof frontmatter.name === 'string' && frontmatter.name) || path.basename(baseDir);
  for (const message of [...descriptionProblems(description), ...nameProblems(name)])
    warnings.push({ path: file, message });
  if (!hasDescription) return undefined;
  return {
    name,
    description,
    filePath: file,
    baseDir,
    scope: root.scope,
    disableModelInvocation: frontmatter['disable-model-invocation'] === true,
    confine: root.confine,
  };
}

function realKey(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * The skills of `roots`, in order of precedence (the first of a name wins, as in pi; a later one
 * is a name clash warning). A file reached twice (a symlink within a root) counts once.
 */
export function loadSkills(roots: readonly SkillRoot[], warnings: ResourceWarning[]): Skill[] {
  const byName = new Map<string, Skill>();
  const seenFiles = new Set<string>();
  const clashes: ResourceWarning[] = [];
  for (const root of roots) {
    for (const file of collectEntries(root, warnings)) {
      const key = realKey(file);
      if (seenFiles.has(key)) continue;
      seenFiles.add(key);
      const skill = loadSkillFile(file, root, warnings);
      if (!skill) continue;
      const existing = byName.get(skill.name);
      if (existing) {
        clashes.push({
          path: file,
          message: `name "${skill.name}" collision: ${existing.filePath} is used`,
        });
      } else byName.set(skill.name, skill);
    }
  }
  warnings.push(...clashes);
  return [...byName.values()];
}
