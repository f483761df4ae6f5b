import path from 'node:path';
import type { ResourceScope, ResourceWarning } from '../../shared/resources.js';
import { entryKind, listDir, readConfined } from './confined-read.js';
import { parseFrontmatter } from './frontmatter.js';
import { addIgnoreRules, isIgnored, newIgnore } from './ignore-rules.js';

/*
 * Prompt templates as pi 1.6 finds, names and expands them (prompt-templates.js): the `.md` files
 * directly in a prompts folder, named by their file name; the description from the frontmatter
 * or the body's first non-empty line (60 characters, then "..."); `/name args` expands to the
 * body with pi's argument rules. The first template of a name wins; a later one is a warning.
 */

export interface PromptTemplate {
  name: string;
  description: string;
  argumentHint?: string;
  /** The body, frontmatter removed. */
  content: string;
  filePath: string;
  scope: ResourceScope;
}

export interface TemplateRoot {
  dir: string;
  scope: ResourceScope;
  /** A real path: files whose real path lies outside are skipped with a warning. */
  confine: string;
}

const MAX_TEMPLATES = 500;

function loadTemplateFile(
  file: string,
  root: TemplateRoot,
  warnings: ResourceWarning[],
): PromptTemplate | undefined {
  const read = readConfined(file, root.confine);
  if (!read.ok) {
    warnings.push({ path: file, message: `${path.basename(file)} ${read.problem}` });
    return undefined;
  }
  let frontmatter: Record<string, unknown>;
  let body: string;
  try {
    ({ frontmatter, body } = parseFrontmatter(read.text));
  } catch (error) {
    warnings.push({ path: file, message: `invalid frontmatter: ${(error as Error).message}` });
    return undefined;
  }
  let description = typeof frontmatter.description === 'string' ? frontmatter.description : '';
  if (!description) {
    const firstLine = body.split('\n').find((line) => line.trim());
    if (firstLine) description = firstLine.slice(0, 60) + (firstLine.length > 60 ? '...' : '');
  }
  const hint = frontmatter['argument-hint'];
  return {
    name: path.basename(file).replace(/\.md$/, ''),
    description,
    ...(typeof hint === 'string' && hint ? { argumentHint: hint } : {}),
    content: body,
    filePath: file,
    scope: root.scope,
  };
}

export function loadPromptTemplates(
  roots: readonly TemplateRoot[],
  warnings: ResourceWarning[],
): PromptTemplate[] {
  const byName = new Map<string, PromptTemplate>();
  const clashes: ResourceWarning[] = [];
  for (const root of roots) {
    const entries = listDir(root.dir);
    const ig = newIgnore();
    const names = entries.map((entry) => entry.name);
    addIgnoreRules(ig, root.dir, names, root.dir, root.confine);
    for (const entry of entries) {
      if (byName.size >= MAX_TEMPLATES) break;
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const file = path.join(root.dir, entry.name);
      const kind = entryKind(root.dir, entry, root.confine);
      if (kind === 'outside') {
        warnings.push({
          path: file,
          message: `${entry.name} leads outside ${root.confine}; not read`,
        });
        continue;
      }
      if (kind !== 'file' || !entry.name.endsWith('.md') || isIgnored(ig, root.dir, file, false))
        continue;
      const template = loadTemplateFile(file, root, warnings);
      if (!template) continue;
      const existing = byName.get(template.name);
      if (existing) {
        clashes.push({
          path: file,
          message: `name "/${template.name}" collision: ${existing.filePath} is used`,
        });
      } else byName.set(template.name, template);
    }
  }
  warnings.push(...clashes);
  return [...byName.values()];
}

/**
 * pi's `parseCommandArgs`: words split on white space, a quote opens only at a word's start and
 * may hold spaces, `\"` inside a `"` quote is a quote; an unclosed quote is taken as text.
 */
export function parseCommandArgs(argsString: string): string[] {
  const args: string[] = [];
  let current = '';
  let hasToken = false;
  let inQuote: string | null = null;
  let quoteStart = 0;
  for (let i = 0; i < argsString.length; i++) {
    const char = argsString[i] as string;
    if (inQuote) {
      if (char === '\\' && argsString[i + 1] === inQuote) {
        current += inQuote;
        i++;
      } else if (char === inQuote) {
        inQuote = null;
      } else {
        current += char;
      }
    } else if ((char === '"' || char === "'") && !hasToken) {
      inQuote = char;
      quoteStart = i;
      hasToken = true;
    } else if (/\s/.test(char)) {
      if (hasToken) {
        args.push(current);
        current = '';
        hasToken = false;
      }
    } else {
      current += char;
      hasToken = true;
    }
    if (inQuote && i === argsString.length - 1) {
      // Unclosed: the quote is text and the rest is read again as plain words.
      inQuote = null;
      current = argsString[quoteStart] as string;
      i = quoteStart;
    }
  }
  if (hasToken) args.push(current);
  return args;
}

/**
 * pi's `substituteArgs`: `$1`…, `$@` and `$ARGUMENTS` (all), `${N:-default}`, `${@:-default}`,
 * `${ARGUMENTS:-default}`, `${@:N}` and `${@:N:L}` (slices, 1-based). Values are not substituted
 * again.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const allArgs = args.join(' ');
  return content.replace(
    /\$\{(\d+|ARGUMENTS|@):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g,
    (
      _match,
      defaultTarget: string | undefined,
      defaultValue: string | undefined,
      sliceStart: string | undefined,
      sliceLength: string | undefined,
      simple: string | undefined,
    ) => {
      if (defaultTarget) {
        const value =
          defaultTarget === '@' || defaultTarget === 'ARGUMENTS'
            ? allArgs
            : args[parseInt(defaultTarget, 10) - 1];
        return value ? value : (defaultValue ?? '');
      }
      if (sliceStart) {
        const start = Math.max(0, parseInt(sliceStart, 10) - 1);
        if (sliceLength) return args.slice(start, start + parseInt(sliceLength, 10)).join(' ');
        return args.slice(start).join(' ');
      }
      if (simple === 'ARGUMENTS' || simple === '@') return allArgs;
      return args[parseInt(simple ?? '0', 10) - 1] ?? '';
    },
  );
}

/** pi's `expandPromptTemplate`: `/name args` of a known template becomes its text; else unchanged. */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplate[]): string {
  if (!text.startsWith('/')) return text;
  const match = text.match(/^\/([^\s]+)(?:\s+([\s\S]*))?$/);
  if (!match) return text;
  const template = templates.find((t) => t.name === match[1]);
  if (!template) return text;
  return substituteArgs(template.content, parseCommandArgs(match[2] ?? ''));
}
