// Replaced by the real `arbor context` as soon as it lands.
export async function runContext(_args: string[]): Promise<number> {
  process.stderr.write('arbor context: not available in this build yet\n');
  return 1;
}
