// Replaced by the real `arbor user` as soon as it lands.
export async function runUser(_args: string[]): Promise<number> {
  process.stderr.write('arbor user: not available in this build yet\n');
  return 1;
}
