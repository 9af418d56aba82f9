import { eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { twoFactors, type TwoFactorRow } from "../db/schema/index.ts";

export function getTwoFactor(tx: Tx, uid: number): TwoFactorRow | undefined {
  return prepared(tx, "twoFactor.byUid", (t) =>
    t.select().from(twoFactors).where(eq(twoFactors.uid, sql.placeholder("uid"))).prepare(),
  ).get({ uid });
}

export function upsertTwoFactor(tx: Tx, uid: number, secret: string, unix: number): TwoFactorRow {
  return tx
    .insert(twoFactors)
    .values({ uid, secret, createdUnix: unix, updatedUnix: unix, lastUsedPasscode: "" })
    .onConflictDoUpdate({ target: twoFactors.uid, set: { secret, updatedUnix: unix, lastUsedPasscode: "" } })
    .returning()
    .get();
}

export function setLastUsedPasscode(tx: Tx, uid: number, passcode: string, unix: number): void {
  tx.update(twoFactors).set({ lastUsedPasscode: passcode, updatedUnix: unix }).where(eq(twoFactors.uid, uid)).run();
}

export function deleteTwoFactor(tx: Tx, uid: number): boolean {
  return tx.delete(twoFactors).where(eq(twoFactors.uid, uid)).returning({ id: twoFactors.id }).all().length > 0;
}

export function setScratchHash(tx: Tx, uid: number, scratchHash: string): void {
  tx.update(twoFactors).set({ scratchHash }).where(eq(twoFactors.uid, uid)).run();
}
