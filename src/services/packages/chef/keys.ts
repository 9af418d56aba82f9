import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { Env } from "../../env.ts";
import { PackagePropertyRef, type UserRow } from "../../../db/schema/index.ts";
import { writeTx } from "../../../db/client.ts";
import * as pkgModel from "../../../models/package.ts";

/**
 * Where an owner's Chef public key lives. Gitea keeps it as the user setting `chef.public_pem`;
 * hearth has no user-settings table, so the key is a property (of that name) of an internal
 * package of the owner: type chef, a name no cookbook can have (cookbook names have no
 * whitespace), `is_internal` so no listing, search, quota or registry answer ever shows it. It
 * goes with the owner's packages when the owner is deleted, and needs no migration.
 */
const KEY_RECORD = "chef public key";
/** Gitea's chef_module.SettingPublicPem. */
export const SETTING_PUBLIC_PEM = "chef.public_pem";
/** Gitea's chef_module.KeyBits. */
export const KEY_BITS = 4096;

/** The owner's stored public key (PKIX PEM), if one was generated. */
export function chefPublicKey(env: Env, owner: UserRow): string | undefined {
  const record = pkgModel.getPackage(env.db, owner.id, "chef", KEY_RECORD);
  if (!record?.isInternal) return undefined;
  return pkgModel.listProperties(env.db, PackagePropertyRef.Package, record.id).find((p) => p.name === SETTING_PUBLIC_PEM)?.value;
}

/** Stores `publicPem` as the owner's key, replacing the one before. */
export function setChefPublicKey(env: Env, owner: UserRow, publicPem: string): void {
  writeTx(env.db, (tx) => {
    const record =
      pkgModel.getPackage(tx, owner.id, "chef", KEY_RECORD) ??
      pkgModel.insertPackage(tx, {
        ownerId: owner.id,
        repoId: 0,
        type: "chef",
        name: KEY_RECORD,
        lowerName: KEY_RECORD,
        semverCompatible: false,
        isInternal: true,
      });
    pkgModel.deleteProperties(tx, PackagePropertyRef.Package, record.id, SETTING_PUBLIC_PEM);
    pkgModel.insertProperty(tx, { refType: PackagePropertyRef.Package, refId: record.id, name: SETTING_PUBLIC_PEM, value: publicPem });
  });
}

/**
 * Gitea's RegenerateChefKeyPair: a new RSA key pair (4096 bits); the public half (PKIX PEM)
 * replaces the owner's key, the private half (PKCS#1 PEM, what knife reads) is returned once
 * and kept nowhere.
 */
export async function regenerateChefKeyPair(env: Env, owner: UserRow, bits = KEY_BITS): Promise<string> {
  const { publicKey, privateKey } = await promisify(generateKeyPair)("rsa", {
    modulusLength: bits,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  setChefPublicKey(env, owner, publicKey);
  return privateKey;
}
