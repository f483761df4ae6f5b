// Replaced by the real `arbor run` as soon as it lands.
export async function runRun(_args: string[]): Promise<number> {
  process.stderr.write('arbor run: not available in this build yet\n');
  return 1;
}
