import type { ResourceWarning } from '../../../shared/resources';

/*
 * The page notice for workspace files that were skipped or read with a problem (invalid
 * frontmatter, a name clash, a file too big): one calm line naming them, not one alarm each.
 */

/** Notices about the workspace's resources share this key: a newer one replaces the last. */
export const RESOURCES_NOTICE_KEY = 'workspace-resources';

const SHOWN = 3;

/** The notice's text, or null when there is nothing to say. */
export function resourceWarningsNotice(warnings: readonly ResourceWarning[]): string | null {
  if (warnings.length === 0) return null;
  const listed = warnings
    .slice(0, SHOWN)
    .map((warning) => `${warning.path}: ${warning.message.replace(/\.$/, '')}`)
    .join('; ');
  const more = warnings.length > SHOWN ? ` (and ${warnings.length - SHOWN} more)` : '';
  const what =
    warnings.length === 1
      ? 'One workspace file was skipped or read with a problem'
      : `${warnings.length} workspace files were skipped or read with a problem`;
  return `${what}: ${listed}${more}. The system prompt's node lists them all.`;
}

/** What identifies a set of warnings, so the same set is not announced again after each run. */
export function warningsKey(warnings: readonly ResourceWarning[]): string {
  return JSON.stringify(warnings.map((warning) => [warning.path, warning.message]));
}
