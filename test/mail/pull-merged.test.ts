import { afterAll, describe, expect, test } from "bun:test";
import { createLogger } from "../../src/lib/log.ts";
import { eq } from "drizzle-orm";
import { queueItems, UserType, type UserRow } from "../../src/db/schema/index.ts";
import { createServer, type Socket } from "node:net";
import { openDatabase } from "../../src/db/client.ts";
import { composeEnv } from "../../src/compose.ts";
import { MAIL_QUEUE } from "../../src/services/mail/deliver.ts";
import { closeMail, flushMail } from "../../src/services/mail/outbox.ts";
import { mailPullMerged, type PullMergedMail } from "../../src/services/mail/pull-merged.ts";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { startSmtpSink } from "../support/smtp-sink.ts";

const sink = await startSmtpSink();
const otherSink = await startSmtpSink();
const deadSink = await startSmtpSink();
await deadSink.close();
afterAll(async () => {
  await sink.close();
  await otherSink.close();
});

const mailerIni = (port: number, extra = "") =>
  `[mailer]\nENABLED = true\nPROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${port}\nFROM = "Forge" <forge@forge.test>\nSUBJECT_PREFIX = [forge]\n${extra}`;

const t = makeTestApp(`${mailerIni(sink.port)}[service]\nENABLE_NOTIFY_MAIL = true\n`);
const bob = await t.user("bob");
const alice = await t.user("alice");
const erin = await t.user("erin");

function merged(over: Partial<PullMergedMail> = {}): PullMergedMail {
  return {
    owner: "bob",
    repo: "tools",
    index: 7,
    title: "Fix <the> hammer",
    doer: { ...bob, fullName: "Bob Builder" },
    recipients: [alice],
    baseBranch: "main",
    ...over,
  };
}

/** Lets any mail that was (wrongly) queued reach a sink before asserting that none did. */
const settle = () => Bun.sleep(300);

describe("mailPullMerged", () => {
  test("each recipient gets Gitea's merged-pull-request mail through the SMTP server", async () => {
    sink.mails.length = 0;
    expect(mailPullMerged(t.env, merged({ recipients: [alice, erin] }))).toBe(2);
    await flushMail(t.env);
    const mails = await sink.waitFor(2);
    // One message per recipient: no address is shown to another.
    expect(mails.map((m) => m.rcptTo).sort()).toEqual([["alice@example.com"], ["erin@example.com"]]);
    const mail = mails.find((m) => m.rcptTo[0] === "alice@example.com")!;
    const p = mail.parsed;
    const domain = t.env.settings.server.domain;
    expect(mail.mailFrom).toBe("forge@forge.test");
    expect(p.from?.value).toEqual([{ name: "Bob Builder", address: "forge@forge.test" }]);
    expect(p.to && !Array.isArray(p.to) ? p.to.text : "").toBe("alice@example.com");
    expect(p.subject).toBe("[forge] Re: [bob/tools] Fix <the> hammer (#7)");
    expect(p.messageId).toMatch(new RegExp(`^<bob/tools/pulls/7/merge/\\d+@${domain}>$`));
    expect(p.inReplyTo).toBe(`<bob/tools/pulls/7@${domain}>`);
    expect(p.references).toBe(`<bob/tools/pulls/7@${domain}>`);
    const h = (name: string) => p.headers.get(name);
    const headerLines = mail.raw.split("\r\n\r\n")[0]!.split("\r\n");
    expect(headerLines).toContain(`List-ID: bob/tools <tools.bob.${domain}>`);
    expect(headerLines).toContain(`List-Archive: <${ROOT_URL}bob/tools>`);
    expect(headerLines).toContain(`List-Unsubscribe: <${ROOT_URL}bob/tools/pulls/7>`);
    expect(h("x-gitea-reason")).toBe("pull");
    expect(h("x-gitea-sender")).toBe("bob");
    expect(h("x-gitea-recipient")).toBe("alice");
    expect(h("x-gitea-recipient-address")).toBe("alice@example.com");
    expect(h("x-gitea-repository-path")).toBe("bob/tools");
    expect(h("x-gitea-issue-id")).toBe("7");
    expect(h("x-gitea-issue-link")).toBe(`${ROOT_URL}bob/tools/pulls/7`);
    expect(h("x-gitlab-issue-iid")).toBe("7");
    expect(p.text).toContain("@bob merged #7 into main.");
    expect(p.text).toContain(`${ROOT_URL}bob/tools/pulls/7`);
    expect(p.html).toContain("<b>@bob</b> merged #7 into main.");
    expect(p.html).toContain(`<a href="${ROOT_URL}bob/tools/pulls/7">View it on hearth</a>`);
    // The title is the user's text: escaped in HTML.
    expect(p.html).toContain("<title>Re: [bob/tools] Fix &lt;the&gt; hammer (#7)</title>");
  });

  test("inactive, sign-in-prohibited, address-less and organization accounts are not mailed; each user once", async () => {
    sink.mails.length = 0;
    const recipients: UserRow[] = [
      { ...erin, isActive: false },
      { ...erin, id: 9001, prohibitLogin: true },
      { ...erin, id: 9002, email: "" },
      { ...erin, id: 9003, type: UserType.Organization },
      alice,
      alice,
    ];
    expect(mailPullMerged(t.env, merged({ recipients }))).toBe(1);
    await flushMail(t.env);
    await settle();
    expect(sink.mails.map((m) => m.rcptTo)).toEqual([["alice@example.com"]]);
  });

  test("the merger is not told of their own merge, except when it merged on its own (automerge)", async () => {
    sink.mails.length = 0;
    expect(mailPullMerged(t.env, merged({ recipients: [bob] }))).toBe(0);
    expect(mailPullMerged(t.env, merged({ recipients: [bob, alice], automerge: true }))).toBe(2);
    await flushMail(t.env);
    await settle();
    expect(sink.mails.map((m) => m.rcptTo[0]).sort()).toEqual(["alice@example.com", "bob@example.com"]);
  });

  test("nothing is sent while [mailer] ENABLED is false", async () => {
    const off = makeTestApp(`[mailer]\nENABLED = false\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${otherSink.port}\n[service]\nENABLE_NOTIFY_MAIL = true\n`);
    const doer = await off.user("bob");
    const u = await off.user("alice");
    expect(mailPullMerged(off.env, merged({ doer, recipients: [u] }))).toBe(0);
    await flushMail(off.env);
    await settle();
    expect(otherSink.mails).toHaveLength(0);
  });

  test("nothing is sent while [service] ENABLE_NOTIFY_MAIL is false", async () => {
    const off = makeTestApp(`${mailerIni(otherSink.port)}[service]\nENABLE_NOTIFY_MAIL = false\n`);
    const doer = await off.user("bob");
    const u = await off.user("alice");
    expect(mailPullMerged(off.env, merged({ doer, recipients: [u] }))).toBe(0);
    await flushMail(off.env);
    await settle();
    expect(otherSink.mails).toHaveLength(0);
  });

  test("a dead mail server neither throws into nor delays the caller; the failure is logged", async () => {
    const dead = makeTestApp(`${mailerIni(deadSink.port)}[service]\nENABLE_NOTIFY_MAIL = true\n`);
    const lines: string[] = [];
    dead.env.log = createLogger("warn", (l) => lines.push(l));
    const doer = await dead.user("bob");
    const u = await dead.user("alice");
    expect(mailPullMerged(dead.env, merged({ doer, recipients: [u] }))).toBe(1);
    await flushMail(dead.env);
    const warned = lines.filter((l) => l.includes("WARN mail delivery failed, will retry"));
    const dropped = lines.filter((l) => l.includes("ERROR mail could not be delivered"));
    expect(warned).toHaveLength(2);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toContain("bob/tools#7");
    expect(dropped[0]).toMatch(/ECONNREFUSED|connect/i);
  });

  test("at shutdown a send to a hung mail server is abandoned in time; the mail stays queued and goes out after the next start", async () => {
    // Accepts the connection and never says a word.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const port = (silent.address() as { port: number }).port;
    const hung = makeTestApp(`${mailerIni(port)}[service]\nENABLE_NOTIFY_MAIL = true\n`);
    const lines: string[] = [];
    hung.env.log = createLogger("warn", (l) => lines.push(l));
    const doer = await hung.user("bob");
    const u = await hung.user("alice");
    expect(mailPullMerged(hung.env, merged({ doer, recipients: [u] }))).toBe(1);
    const deadline = Date.now() + 30_000;
    while (held.length === 0 && Date.now() < deadline) await Bun.sleep(5);
    expect(held).toHaveLength(1);

    // As `hearth web` stops: the queue takes no more work, mail under way gets its time, then is left.
    const stopping = hung.env.queue.stop();
    await closeMail(hung.env, 300);
    await stopping;
    expect(lines.some((l) => l.includes("shutting down with mail still undelivered"))).toBe(true);
    for (const socket of held) socket.destroy();
    silent.close();
    const waiting = hung.env.db.select().from(queueItems).where(eq(queueItems.queue, MAIL_QUEUE)).all();
    expect(waiting).toHaveLength(1);

    // The next start (the mail server working again) sends it.
    sink.mails.length = 0;
    const database = openDatabase(hung.settings.database.path);
    const settings = { ...hung.settings, mailer: { ...hung.settings.mailer, smtpPort: sink.port } };
    const env2 = composeEnv(settings, database.db, createLogger("none"));
    env2.queue.start();
    await flushMail(env2);
    await env2.queue.stop();
    database.close();
    expect(sink.mails.map((m) => m.rcptTo[0])).toEqual(["alice@example.com"]);
    expect(sink.mails[0]!.parsed.subject).toBe("[forge] Re: [bob/tools] Fix <the> hammer (#7)");
  });
});
