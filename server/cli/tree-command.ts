// Replaced by the real `arbor tree` as soon as it lands.
export async function runTree(_args: string[]): Promise<number> {
  process.stderr.write('arbor tree: not available in this build yet\n');
  return 1;
}
