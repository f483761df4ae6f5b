/**
 * What a viewer sees where the editor would be: the one line that says the page is read-only and
 * how to get more, instead of controls that could never work for them.
 */
export function ReadOnlyNote() {
  return (
    <p className="read-only-note" role="note">
      You can read this workspace; ask an admin for member access to change it.
    </p>
  );
}
