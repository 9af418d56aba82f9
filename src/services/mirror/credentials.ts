import type { Env } from "../env.ts";
import type { PushMirrorRow } from "../../db/schema/index.ts";
import type { RemoteCredentials } from "./remote-address.ts";

/**
 * A mirror's credentials are sealed (env.mirrorBox) bound to the row's id and repository: sealed
 * credentials copied onto another mirror do not open.
 */
const context = (m: Pick<PushMirrorRow, "id" | "repoId">) => `push_mirror:${m.id}:${m.repoId}`;

export function sealCredentials(env: Env, m: Pick<PushMirrorRow, "id" | "repoId">, c: RemoteCredentials): string {
  if (!c.username && !c.password) return "";
  return env.mirrorBox.seal(JSON.stringify({ username: c.username, password: c.password }), context(m));
}

/** The clear credentials; throws when they do not open (another SECRET_KEY, a moved row). */
export function openCredentials(env: Env, m: Pick<PushMirrorRow, "id" | "repoId" | "remoteCredentials">): RemoteCredentials {
  if (!m.remoteCredentials) return { username: "", password: "" };
  const c = JSON.parse(env.mirrorBox.open(m.remoteCredentials, context(m))) as Partial<RemoteCredentials>;
  return { username: c.username ?? "", password: c.password ?? "" };
}
