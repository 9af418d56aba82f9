/** What a finished subprocess said and how it ended. */
export interface ProcessOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Reads both pipes to their end while waiting for the exit, so neither pipe can fill and block. */
export async function collectOutput(proc: { stdout: ReadableStream<Uint8Array>; stderr: ReadableStream<Uint8Array>; exited: Promise<number> }): Promise<ProcessOutput> {
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
