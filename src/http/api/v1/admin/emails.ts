import * as v from "valibot";
import { operation, type AnyOperation, type OpContext } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { Email } from "../../../../shapes/user.ts";
import { toAPIEmail } from "../../../../convert/user.ts";
import { searchAllEmails } from "../../../../services/user/emails.ts";

const access = { scope: "admin", signIn: "admin" } as const;

/** One page of addresses with their holders, with Gitea's X-Total-Count and Link headers. */
function emailPage(ctx: OpContext<unknown, unknown, unknown>, keyword: string) {
  const page = ctx.page();
  const { rows, total } = searchAllEmails(ctx.env, keyword, page);
  const items = rows.map((r) => toAPIEmail(r.email, { id: r.email.uid, name: r.username }));
  return ctx.list(items, total, page);
}

export const adminEmailOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/admin/emails",
    operationId: "adminGetAllEmails",
    tag: "admin",
    summary: "List all emails",
    access,
    query: PageQuery,
    responses: { 200: v.array(Email) },
    handler: (ctx) => emailPage(ctx, ""),
  }),
  operation({
    method: "GET",
    path: "/admin/emails/search",
    operationId: "adminSearchEmails",
    tag: "admin",
    summary: "Search all emails",
    access,
    query: v.object({ ...PageQuery.entries, q: v.optional(v.string()) }),
    responses: { 200: v.array(Email) },
    handler: (ctx) => emailPage(ctx, (ctx.query.q ?? "").trim()),
  }),
];
