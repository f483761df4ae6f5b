import './system-resources.css';
import { LongText } from './LongText';
import { recordedContextFiles, recordedSkills } from './recorded-resources';
import { useWorkspaceResourcesNow } from './resources-context';

/*
 * The system-prompt node's account of the workspace (decision 086): the context files and skills
 * the recorded message gave the model, read from its sections, and what the workspace holds now
 * that did not load (resources switched off, files skipped with a warning).
 */

/** Sections shown as lists of what they hold rather than as their raw text. */
export const RESOURCE_SECTIONS: ReadonlySet<string> = new Set(['project_context', 'skills']);

function counted(count: number, what: string): string {
  return `${count} ${what}${count === 1 ? '' : 's'}`;
}

/** "2 context files", "1 skill": what a system message's sections give the model, for its summary. */
export function resourceCounts(sections: Record<string, string | null> | undefined): string[] {
  const files = sections?.project_context;
  const skills = sections?.skills;
  return [
    typeof files === 'string' ? counted(recordedContextFiles(files).length, 'context file') : '',
    typeof skills === 'string' ? counted(recordedSkills(skills).length, 'skill') : '',
  ];
}

function lineCount(text: string): string {
  // A final line break ends the last line; it does not start another.
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = text === '' ? 0 : body.split('\n').length;
  return `${lines} line${lines === 1 ? '' : 's'}`;
}

function RawSection({ text }: { text: string }) {
  return (
    <details className="resource-raw">
      <summary>As sent to the model</summary>
      <LongText text={text} preClass="tool-output">
        <pre className="tool-output">{text}</pre>
      </LongText>
    </details>
  );
}

/** A `project_context` or `skills` section: its files (each folded, opened to its text) or skills. */
export function ResourceSection({ name, body }: { name: string; body: string | null }) {
  if (name === 'project_context') {
    if (body === null) return <p>Context files: none any more (removed from the prompt).</p>;
    const files = recordedContextFiles(body);
    return (
      <section className="system-resources" aria-label="Context files">
        <h4>Context files ({files.length})</h4>
        <ul>
          {files.map((file, i) => (
            <li key={i}>
              <details className="context-file">
                <summary>
                  <code>{file.path}</code>{' '}
                  <span className="resource-meta">{lineCount(file.content)}</span>
                </summary>
                <LongText text={file.content} preClass="tool-output">
                  <pre className="tool-output">{file.content}</pre>
                </LongText>
              </details>
            </li>
          ))}
        </ul>
        <RawSection text={body} />
      </section>
    );
  }
  if (body === null) return <p>Skills: none advertised any more (removed from the prompt).</p>;
  const skills = recordedSkills(body);
  return (
    <section className="system-resources" aria-label="Skills">
      <h4>Skills advertised ({skills.length})</h4>
      <ul>
        {skills.map((skill, i) => (
          <li key={i}>
            <code>{skill.name}</code> {skill.description}{' '}
            <span className="resource-meta">{skill.location}</span>
          </li>
        ))}
      </ul>
      <RawSection text={body} />
    </section>
  );
}

/**
 * What of the workspace's resources is not in the prompt now: the reason they are switched off,
 * and the files skipped or read with a problem. Nothing when all is well or nothing is known yet.
 */
export function WorkspaceResourcesNote() {
  const resources = useWorkspaceResourcesNow();
  if (!resources) return null;
  const off = !resources.loaded;
  if (!off && resources.warnings.length === 0) return null;
  return (
    <section className="system-resources resources-now" aria-label="Workspace resources now">
      {off ? (
        <p className="resources-off">
          {resources.reason ??
            'Context files, skills and prompt templates are switched off for this workspace.'}
        </p>
      ) : null}
      {resources.warnings.length > 0 ? (
        <>
          <h4>Skipped or read with a problem ({resources.warnings.length})</h4>
          <ul>
            {resources.warnings.map((warning, i) => (
              <li key={i}>
                <code>{warning.path}</code>: {warning.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
