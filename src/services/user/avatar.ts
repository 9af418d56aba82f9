import { join } from "node:path";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import { AvatarStore } from "../../storage/avatars.ts";
import { BadRequest, Invalid, TooLarge } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";

const stores = new WeakMap<Env, AvatarStore>();

function store(env: Env): AvatarStore {
  let s = stores.get(env);
  if (!s) stores.set(env, (s = new AvatarStore(join(env.settings.server.appDataPath, "avatars"))));
  return s;
}

const IMAGE_TYPES: { type: string; test: (b: Uint8Array) => boolean }[] = [
  { type: "image/png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { type: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", test: (b) => String.fromCharCode(...b.subarray(0, 6)) === "GIF87a" || String.fromCharCode(...b.subarray(0, 6)) === "GIF89a" },
  {
    type: "image/webp",
    test: (b) => String.fromCharCode(...b.subarray(0, 4)) === "RIFF" && String.fromCharCode(...b.subarray(8, 12)) === "WEBP",
  },
];

export function imageType(data: Uint8Array): string | undefined {
  return IMAGE_TYPES.find((t) => t.test(data))?.type;
}

/** Go's base64.StdEncoding.DecodeString, strict: Gitea answers 400 with the position of the first bad byte. */
function decodeBase64(text: string): Uint8Array {
  const bad = text.search(/[^A-Za-z0-9+/=]/);
  const padAt = text.indexOf("=");
  if (bad >= 0) throw new BadRequest(`illegal base64 data at input byte ${bad}`);
  if (text.length % 4 !== 0 || (padAt >= 0 && (padAt < text.length - 2 || /=[^=]/.test(text.slice(padAt))))) {
    throw new BadRequest(`illegal base64 data at input byte ${Math.max(0, padAt >= 0 ? padAt : text.length - (text.length % 4))}`);
  }
  return new Uint8Array(Buffer.from(text, "base64"));
}

/**
 * An uploaded avatar (an account's or a repository's): strict base64 (400), at most
 * [picture] AVATAR_MAX_FILE_SIZE bytes, and a PNG, JPEG, GIF or WebP by its signature.
 */
export function decodeAvatarImage(env: Env, base64: string): Uint8Array {
  const data = decodeBase64(base64);
  if (data.length > env.settings.picture.avatarMaxFileSize) {
    throw new TooLarge(`avatar is too large: ${data.length} bytes, at most ${env.settings.picture.avatarMaxFileSize}`);
  }
  if (!imageType(data)) throw new Invalid("image: unknown format");
  return data;
}

/** Gitea's avatar.HashAvatar: the owner's id is part of the name, so deleting one owner's file never takes another's. */
export function hashAvatar(id: number, data: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(`${id}-`).update(data).digest("hex");
}

/**
 * Gitea's UploadAvatar: the image is stored under a hash of owner id and content and the account
 * points at it. Only PNG, JPEG, GIF and WebP are accepted (checked by signature); the image is kept
 * as uploaded rather than re-encoded.
 */
export function setAvatar(env: Env, owner: UserRow, base64: string): UserRow {
  const data = decodeAvatarImage(env, base64);
  const name = hashAvatar(owner.id, data);
  store(env).save(name, data);
  const updated = users.updateUser(env.db, owner.id, { avatar: name, updatedUnix: nowUnix() }) ?? owner;
  if (owner.avatar && owner.avatar !== name) store(env).remove(owner.avatar);
  return updated;
}

/**
 * An avatar uploaded as a file (the web's settings form): the same limits as `setAvatar` — at most
 * [picture] AVATAR_MAX_FILE_SIZE bytes, a PNG, JPEG, GIF or WebP by its signature — then stored
 * under its hash, the previous file removed.
 */
export function setAvatarImage(env: Env, owner: UserRow, data: Uint8Array): UserRow {
  if (data.length > env.settings.picture.avatarMaxFileSize) {
    throw new TooLarge(`avatar is too large: ${data.length} bytes, at most ${env.settings.picture.avatarMaxFileSize}`);
  }
  if (!imageType(data)) throw new Invalid("image: unknown format");
  const name = hashAvatar(owner.id, data);
  store(env).save(name, data);
  const updated = writeTx(env.db, (tx) => users.updateUser(tx, owner.id, { avatar: name, updatedUnix: nowUnix() })) ?? owner;
  if (owner.avatar && owner.avatar !== name) store(env).remove(owner.avatar);
  return updated;
}

export function deleteAvatar(env: Env, owner: UserRow): void {
  users.updateUser(env.db, owner.id, { avatar: "", updatedUnix: nowUnix() });
  if (owner.avatar) store(env).remove(owner.avatar);
}

export function removeAvatarFile(env: Env, name: string): void {
  store(env).remove(name);
}

/** The stored file and its type, for serving `/avatars/{name}`. */
export async function avatarFile(env: Env, name: string): Promise<{ path: string; type: string } | undefined> {
  const path = store(env).file(name);
  if (!path) return undefined;
  const head = new Uint8Array(await Bun.file(path).slice(0, 16).arrayBuffer());
  return { path, type: imageType(head) ?? "application/octet-stream" };
}
