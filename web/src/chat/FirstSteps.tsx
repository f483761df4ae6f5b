/*
 * What an empty session says: what Arbor is, and, on the demo model (which needs no API key),
 * prompts it answers that show what to try first. An example goes into the editor, to read and
 * send.
 */

/** Prompts the demo model answers (server/demo-model/demo-script.ts). */
export const DEMO_EXAMPLES: readonly { name: string; text: string }[] = [
  { name: 'Call a tool', text: 'What is in this folder?\n/tool ls {"path":"."}' },
  {
    name: 'A long answer to compact',
    text: `Tell me about trees. ${'Roots, trunks, branches and leaves grow on and on. '.repeat(40)}`,
  },
  { name: 'A question to edit and rerun', text: 'What is the tallest tree in the world?' },
];

export function FirstSteps(props: {
  demo: boolean;
  onExample?: ((text: string) => void) | undefined;
}) {
  return (
    <section className="first-steps" aria-label="Getting started">
      <h2>A conversation that branches</h2>
      <p>
        Arbor keeps every turn in a tree, shown beside the chat. Click a prompt in the tree (or its
        Edit) to change it and run it again as a new branch; every branch stays, and a click on any
        node goes back to it.
      </p>
      {props.demo && props.onExample ? (
        <>
          <p>
            This session talks to the demo model, which needs no API key and answers in a set way.
            Try:
          </p>
          <div className="first-steps-examples">
            {DEMO_EXAMPLES.map((example) => (
              <button
                key={example.name}
                type="button"
                onClick={() => props.onExample?.(example.text)}
              >
                {example.name}
              </button>
            ))}
          </div>
        </>
      ) : (
        <p>Type a message below to start.</p>
      )}
    </section>
  );
}
