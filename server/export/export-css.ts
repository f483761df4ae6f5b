/** The exported page's one style block; the page's CSP allows exactly it, by hash. */
export const EXPORT_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.45; }
body { margin: 0; }
header { padding: 0.5rem 1rem; border-bottom: 1px solid #8884; }
header h1 { margin: 0.2rem 0; font-size: 1.3rem; }
.layout { display: grid; grid-template-columns: minmax(14rem, 28%) 1fr; }
nav { border-right: 1px solid #8884; padding: 0 0.75rem; overflow: auto; max-height: calc(100vh - 5rem); position: sticky; top: 0; font-size: 0.85rem; }
nav ol, nav ul { margin: 0; padding-left: 0.9rem; }
nav ol { list-style: none; padding-left: 0; }
nav a { color: inherit; overflow-wrap: anywhere; }
nav a:focus-visible, summary:focus-visible { outline: 2px solid Highlight; }
main { padding: 0 1rem 2rem; min-width: 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #8881; padding: 0.4rem; border-radius: 4px; margin: 0.3rem 0; }
.msg { border: 1px solid #8884; border-radius: 6px; padding: 0.2rem 0.7rem; margin: 0.6rem 0; overflow-wrap: anywhere; }
.msg:target, .entry-note:target { outline: 3px solid Highlight; }
.msg h3 { font-size: 0.85rem; margin: 0.3rem 0; opacity: 0.8; }
.msg.user { background: #4a90e21a; }
.msg.toolResult, .msg.bashExecution { font-size: 0.9rem; }
.msg img { max-width: 100%; }
.entry-note, .note { font-size: 0.85rem; opacity: 0.8; }
.error { color: #c0392b; }
@media (max-width: 700px) { .layout { grid-template-columns: 1fr; } nav { position: static; max-height: none; border-right: 0; } }
`;
