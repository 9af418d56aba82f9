import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { AccessTokenRow, UserRow } from "../../db/schema/index.ts";
import * as tokens from "../../models/token.ts";
import { hashToken, newAccessToken } from "../../crypto/token.ts";
import { InvalidScopeError, ScopeSet, SCOPE_ALL } from "../access/scopes.ts";
import { BadRequest, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";

export interface CreatedToken {
  row: AccessTokenRow;
  /** The token itself: shown once, never stored. */
  token: string;
}

/** Normalizes requested scopes the way Gitea does, with Gitea's 400 messages. */
export function normalizeScopes(requested: readonly string[]): string {
  let set: ScopeSet;
  try {
    set = ScopeSet.parse(requested);
  } catch (err) {
    if (err instanceof InvalidScopeError) {
      throw new BadRequest(`invalid access token scope provided: ${err.message}`);
    }
    throw err;
  }
  const normalized = set.toString();
  if (normalized === "") throw new BadRequest("access token must have a scope");
  return normalized;
}

export function createToken(env: Env, owner: UserRow, name: string, scopes: readonly string[]): CreatedToken {
  const scope = normalizeScopes(scopes);
  const token = newAccessToken();
  const now = nowUnix();
  const row = writeTx(env.db, (tx) => {
    if (tokens.tokenNameExists(tx, owner.id, name)) throw new BadRequest("access token name has been used already");
    return tokens.insertToken(tx, {
      uid: owner.id,
      name,
      tokenHash: hashToken(token),
      tokenLastEight: token.slice(-8),
      scope,
      createdUnix: now,
      updatedUnix: now,
    });
  });
  return { row, token };
}

export function listTokens(env: Env, owner: UserRow, offset: number, limit: number) {
  return tokens.listTokens(env.db, owner.id, offset, limit);
}

/**
 * Deletes by id or by name, as Gitea does: a value that parses as a non-zero integer (0x/0o/0b
 * prefixes included) is an id; anything else is a name.
 */
export function deleteToken(env: Env, owner: UserRow, idOrName: string): void {
  const id = parseGoInt(idOrName);
  writeTx(env.db, (tx) => {
    let tokenId = id;
    if (!tokenId) {
      const matches = tokens.findTokensByName(tx, owner.id, idOrName);
      if (matches.length === 0) throw new NotFound(`access token does not exist [id: 0]`);
      if (matches.length > 1) throw new Invalid(`multiple matches for token name '${idOrName}'`);
      tokenId = matches[0]!.id;
    }
    if (!tokens.deleteToken(tx, owner.id, tokenId)) throw new NotFound(`access token does not exist [id: ${tokenId}]`);
  });
}

/** strconv.ParseInt(v, 0, 64): decimal, or 0x/0o/0b prefixed; undefined when not an integer. */
function parseGoInt(v: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(v);
  if (!m) return undefined;
  const body = m[2]!.replace(/_/g, "");
  let n: number;
  if (/^0[xX]/.test(body)) n = parseInt(body.slice(2), 16);
  else if (/^0[oO]/.test(body)) n = parseInt(body.slice(2), 8);
  else if (/^0[bB]/.test(body)) n = parseInt(body.slice(2), 2);
  else if (body.length > 1 && body.startsWith("0")) n = parseInt(body.slice(1), 8);
  else n = parseInt(body, 10);
  if (!Number.isSafeInteger(n)) return undefined;
  return m[1] === "-" ? -n : n;
}

/** The scopes a stored token carries; tokens from before scopes existed read as `all`. */
export function storedScope(row: AccessTokenRow): string {
  return row.scope === "" ? SCOPE_ALL : row.scope;
}
