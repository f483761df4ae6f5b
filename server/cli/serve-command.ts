// Replaced by the real `arbor serve` as soon as it lands.
export async function runServe(_args: string[]): Promise<number> {
  process.stderr.write('arbor serve: not available in this build yet\n');
  return 1;
}
