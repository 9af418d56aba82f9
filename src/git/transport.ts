import { gitEnv } from "./exec.ts";

export type GitService = "git-upload-pack" | "git-receive-pack";

export function isGitService(s: string | null): s is GitService {
  return s === "git-upload-pack" || s === "git-receive-pack";
}

/** `0018# service=git-upload-pack\n` as one pkt-line. */
function pktLine(text: string): string {
  return (text.length + 4).toString(16).padStart(4, "0") + text;
}

/** Only protocol versions git itself speaks are forwarded (`version=2`, `version=1`). */
function sanitizeGitProtocol(header: string | null): string | undefined {
  if (!header) return undefined;
  const ok = header
    .split(":")
    .filter((p) => /^version=[0-2]$/.test(p))
    .join(":");
  return ok || undefined;
}

export interface TransportOptions {
  repoPath: string;
  service: GitService;
  gitProtocol: string | null;
  /** Extra environment for git (and so for its hooks): repository id, pusher, internal URL. */
  env?: Record<string, string>;
}

function spawnService(opts: TransportOptions, advertise: boolean, stdin: ReadableStream<Uint8Array> | null) {
  const proto = sanitizeGitProtocol(opts.gitProtocol);
  // git's delta base cache (96 MiB by default) is most of what pack-objects holds when it packs
  // without a bitmap; at 16 MiB it packed the benchmark repository in the same CPU time with
  // ~50 MiB less (bench/README.md). It reaches pack-objects through GIT_CONFIG_PARAMETERS.
  const config = opts.service === "git-upload-pack" ? ["-c", "core.deltaBaseCacheLimit=16m"] : [];
  const args = ["git", ...config, opts.service.slice(4), "--stateless-rpc"];
  if (advertise) args.push("--advertise-refs");
  args.push("--", opts.repoPath);
  return Bun.spawn(args, {
    env: gitEnv({ ...(proto ? { GIT_PROTOCOL: proto } : {}), ...opts.env }),
    stdin: stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
}

/**
 * The ref advertisement for `GET info/refs?service=...`. With protocol v2 git prints the
 * capability list itself and wants no service header.
 */
export function advertiseRefs(opts: TransportOptions): ReadableStream<Uint8Array> {
  const proc = spawnService(opts, true, null);
  const v2 = sanitizeGitProtocol(opts.gitProtocol)?.includes("version=2") ?? false;
  const header = v2 ? "" : pktLine(`# service=${opts.service}\n`) + "0000";
  const out = proc.stdout;
  void new Response(proc.stderr).text();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      if (header) controller.enqueue(new TextEncoder().encode(header));
      const reader = out.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        controller.enqueue(value);
      }
      await proc.exited;
      controller.close();
    },
    cancel() {
      proc.kill();
    },
  });
}

/**
 * `POST git-upload-pack` / `git-receive-pack`: the request body streams into git and git's
 * output streams back, neither buffered whole. A gzip-encoded body is inflated on the way in.
 */
export function serviceRpc(
  opts: TransportOptions,
  body: ReadableStream<Uint8Array> | null,
  contentEncoding: string | null,
): ReadableStream<Uint8Array> {
  let input = body;
  if (input && contentEncoding && /^(x-)?gzip$/i.test(contentEncoding.trim())) {
    input = input.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  }
  const proc = spawnService(opts, false, input);
  void new Response(proc.stderr).text();
  return proc.stdout as ReadableStream<Uint8Array>;
}
