import type { Env } from "../env.ts";

/**
 * Gitea's gitea_runtime_token (ACTIONS_RUNTIME_TOKEN in a job): a JWT signed with a key derived
 * from SECRET_KEY, naming the task, its job and run, with which the job's steps upload and
 * download artifacts. Valid for as long as a task may run.
 */
export interface RuntimeClaims {
  TaskID: number;
  RunID: number;
  JobID: number;
  /** GitHub's scope claim: `Actions.Results:{run}:{job}`. */
  scp: string;
  ac: string;
  nbf: number;
  exp: number;
}

const keys = new WeakMap<Env, Promise<CryptoKey>>();

function keyOf(env: Env): Promise<CryptoKey> {
  let key = keys.get(env);
  if (!key) {
    const material = new Uint8Array(new Bun.CryptoHasher("sha256").update(`actions-runtime-token\0${env.settings.security.secretKey}`).digest());
    key = crypto.subtle.importKey("raw", material, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(env, key);
  }
  return key;
}

const b64url = (data: Uint8Array | string) => Buffer.from(data).toString("base64url");

export async function createRuntimeToken(env: Env, task: { id: number; runId: number; jobId: number }, now: number): Promise<string> {
  const claims: RuntimeClaims = {
    TaskID: task.id,
    RunID: task.runId,
    JobID: task.jobId,
    scp: `Actions.Results:${task.runId}:${task.jobId}`,
    ac: JSON.stringify([{ Scope: "", Permission: 2 }]),
    nbf: now - 60,
    exp: now + env.settings.actions.endlessTaskTimeout + 3600,
  };
  const body = `${b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}`;
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", await keyOf(env), new TextEncoder().encode(body)));
  return `${body}.${b64url(sig)}`;
}

/** The claims of a token this server signed and that is still valid, else undefined. */
export async function verifyRuntimeToken(env: Env, token: string, now: number): Promise<RuntimeClaims | undefined> {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [head, body, sig] = parts as [string, string, string];
  let ok = false;
  try {
    ok = await crypto.subtle.verify("HMAC", await keyOf(env), new Uint8Array(Buffer.from(sig, "base64url")), new TextEncoder().encode(`${head}.${body}`));
  } catch {
    return undefined;
  }
  if (!ok) return undefined;
  try {
    const header = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: string };
    if (header.alg !== "HS256") return undefined;
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as RuntimeClaims;
    if (typeof claims.TaskID !== "number" || claims.exp < now || claims.nbf > now) return undefined;
    return claims;
  } catch {
    return undefined;
  }
}
