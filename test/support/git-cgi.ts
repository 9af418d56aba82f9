/**
 * Smart HTTP for the fake forges of the migration tests: `git http-backend` run as a CGI program
 * over `projectRoot`, its answer (header lines, a blank line, the body) turned into a Response.
 * Buffered whole: the repositories these tests serve are small.
 */
export async function gitHttpBackend(req: Request, opts: { projectRoot: string; pathInfo: string; remoteUser: string }): Promise<Response> {
  const url = new URL(req.url);
  const body = req.method === "POST" ? new Uint8Array(await req.arrayBuffer()) : undefined;
  const proc = Bun.spawn(["git", "http-backend"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: opts.projectRoot,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_PROJECT_ROOT: opts.projectRoot,
      GIT_HTTP_EXPORT_ALL: "1",
      PATH_INFO: opts.pathInfo,
      REQUEST_METHOD: req.method,
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers.get("content-type") ?? "",
      CONTENT_LENGTH: String(body?.length ?? 0),
      HTTP_CONTENT_ENCODING: req.headers.get("content-encoding") ?? "",
      GIT_PROTOCOL: req.headers.get("git-protocol") ?? "",
      REMOTE_USER: opts.remoteUser,
      REMOTE_ADDR: "127.0.0.1",
    },
    stdin: body ?? "ignore",
    stdout: "pipe",
    stderr: "ignore",
  });
  const out = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
  await proc.exited;
  let end = -1;
  let skip = 0;
  for (let i = 0; i < out.length - 1; i++) {
    if (out[i] === 10 && out[i + 1] === 10) [end, skip] = [i, 2];
    else if (out[i] === 13 && out[i + 1] === 10 && out[i + 2] === 13 && out[i + 3] === 10) [end, skip] = [i, 4];
    if (end >= 0) break;
  }
  if (end < 0) return new Response("git http-backend gave no CGI answer", { status: 500 });
  const headers = new Headers();
  let status = 200;
  for (const line of new TextDecoder().decode(out.slice(0, end)).split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i < 0) continue;
    const [name, value] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
    if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
    else headers.append(name, value);
  }
  return new Response(out.slice(end + skip), { status, headers });
}
