import { shellCommandHint } from '../../../shared/shell-command';

/** Under the editor while `!cmd` / `!!cmd` is typed: says where the command runs and goes. */
export function ShellHint({ text }: { text: string }) {
  const hint = shellCommandHint(text);
  return (
    <p id="shell-hint" className="shell-hint" role="status">
      {hint ?? ''}
    </p>
  );
}
