/**
 * A minimal CGI host for `git http-backend` on Bun.serve: the reference smart-HTTP server that
 * bench/transport.ts compares hearth with. No authentication; every request runs as REMOTE_USER
 * "bench", and receive-pack is allowed where the repository sets `http.receivepack=true`.
 *
 *   GIT_PROJECT_ROOT=/dir BACKEND_PORT=8080 bun bench/git-http-backend.ts
 *
 * The request body streams into http-backend's stdin and its stdout streams back after the CGI
 * headers (Status:, Content-Type:, ...) are parsed off the front, the way hearth streams git.
 */

const root = process.env.GIT_PROJECT_ROOT;
const port = Number(process.env.BACKEND_PORT ?? 0);
if (!root) throw new Error("GIT_PROJECT_ROOT is required");

const BASE_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/",
  LC_ALL: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_PROJECT_ROOT: root,
  GIT_HTTP_EXPORT_ALL: "1",
  REMOTE_USER: "bench",
  REMOTE_ADDR: "127.0.0.1",
  GATEWAY_INTERFACE: "CGI/1.1",
  SERVER_PROTOCOL: "HTTP/1.1",
};

function indexOfHeaderEnd(buf: Uint8Array): { at: number; len: number } | undefined {
  for (let i = 0; i + 1 < buf.length; i++) {
    if (buf[i] === 10 && buf[i + 1] === 10) return { at: i, len: 2 };
    if (buf[i] === 13 && buf[i + 1] === 10 && buf[i + 2] === 13 && buf[i + 3] === 10) return { at: i, len: 4 };
  }
  return undefined;
}

async function cgi(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const env: Record<string, string> = {
    ...BASE_ENV,
    REQUEST_METHOD: req.method,
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    SERVER_NAME: url.hostname,
    SERVER_PORT: url.port,
  };
  const h = req.headers;
  if (h.get("content-type")) env.CONTENT_TYPE = h.get("content-type")!;
  if (h.get("content-length")) env.CONTENT_LENGTH = h.get("content-length")!;
  if (h.get("content-encoding")) env.HTTP_CONTENT_ENCODING = h.get("content-encoding")!;
  if (h.get("git-protocol")) env.HTTP_GIT_PROTOCOL = h.get("git-protocol")!;

  const proc = Bun.spawn(["git", "http-backend"], {
    env,
    stdin: req.method === "POST" && req.body ? req.body : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  void new Response(proc.stderr).text().then((t) => t.trim() && console.error(`http-backend: ${t.trim()}`));
  const reader = proc.stdout.getReader();

  // Read until the blank line that ends the CGI headers.
  let head = new Uint8Array(0);
  let end: { at: number; len: number } | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const merged = new Uint8Array(head.length + value.length);
    merged.set(head);
    merged.set(value, head.length);
    head = merged;
    end = indexOfHeaderEnd(head);
    if (end) break;
  }
  if (!end) {
    await proc.exited;
    return new Response(`http-backend produced no headers (exit ${proc.exitCode})\n`, { status: 502 });
  }
  const headerText = new TextDecoder().decode(head.subarray(0, end.at));
  const rest = head.subarray(end.at + end.len);
  let status = 200;
  const headers = new Headers();
  for (const line of headerText.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i < 0) continue;
    const k = line.slice(0, i).trim();
    const v = line.slice(i + 1).trim();
    if (k.toLowerCase() === "status") status = Number(v.split(" ")[0]);
    else headers.append(k, v);
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (rest.length) controller.enqueue(rest);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel() {
      proc.kill();
    },
  });
  return new Response(body, { status, headers });
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  maxRequestBodySize: 8 * 1024 ** 3,
  idleTimeout: 0,
  fetch: (req) => (new URL(req.url).pathname === "/ready" ? new Response("ok") : cgi(req)),
});
console.log(`git http-backend on http://127.0.0.1:${server.port}/ serving ${root}`);
