import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../src/db/client.ts";
import { queueItems } from "../../src/db/schema/index.ts";
import { createLogger } from "../../src/lib/log.ts";
import type { MailMessage, RenderedMail } from "../../src/mail/message.ts";
import type { Env } from "../../src/services/env.ts";
import { composeEnv } from "../../src/compose.ts";
import { MAIL_QUEUE } from "../../src/services/mail/deliver.ts";
import { closeMail, flushMail, queueMail } from "../../src/services/mail/outbox.ts";
import { makeTestApp } from "../support/app.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";

/** Outgoing mail on the persistent work queue: what is stored, retries, and surviving a restart. */

const sinks: SmtpSink[] = [];
afterAll(async () => {
  await Promise.all(sinks.map((s) => s.close()));
});

async function sink(opts: Parameters<typeof startSmtpSink>[0] = {}): Promise<SmtpSink> {
  const s = await startSmtpSink(opts);
  sinks.push(s);
  return s;
}

const mailerIni = (port: number) =>
  `[mailer]\nENABLED = true\nPROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${port}\nFROM = "Forge" <forge@forge.test>\nSUBJECT_PREFIX = [forge]\n`;

function message(to: string, over: Partial<MailMessage> = {}): MailMessage {
  return {
    to,
    fromName: "Bob Builder",
    subject: `Hello ${to}`,
    html: `<p>Hello <b>${to}</b></p>`,
    text: `Hello ${to}`,
    inReplyTo: "<bob/tools/pulls/3@forge.test>",
    references: ["<bob/tools/pulls/3@forge.test>"],
    headers: { "X-Gitea-Reason": "pull" },
    info: `test mail to ${to}`,
    ...over,
  };
}

function mailItems(env: Env) {
  return env.db.select().from(queueItems).where(eq(queueItems.queue, MAIL_QUEUE)).all();
}

function capture(env: Env): string[] {
  const lines: string[] = [];
  env.log = createLogger("debug", (l) => lines.push(l));
  return lines;
}

describe("mail on the work queue", () => {
  test("mail queued by a process that stopped before sending it is sent, as stored, by the next one on the same data", async () => {
    const s = await sink();
    const app = makeTestApp(mailerIni(s.port));
    // The first process stops its workers, then mail is queued: it is only in the database.
    await app.env.queue.stop();
    expect(queueMail(app.env, [message("a@x.test"), message("b@x.test")])).toBe(2);
    await Bun.sleep(100);
    expect(s.mails).toHaveLength(0);

    // Stored fully rendered: the envelope, the headers as they will be sent, both parts.
    const items = mailItems(app.env);
    expect(items).toHaveLength(2);
    const stored = items.map((i) => JSON.parse(i.payload) as RenderedMail);
    expect(stored[0]!.envelope).toEqual({ from: "forge@forge.test", to: ["a@x.test"] });
    expect(stored[0]!.headers).toMatchObject({
      From: '"Bob Builder" <forge@forge.test>',
      To: "a@x.test",
      Subject: "[forge] Hello a@x.test",
      "In-Reply-To": "<bob/tools/pulls/3@forge.test>",
      References: "<bob/tools/pulls/3@forge.test>",
      "X-Gitea-Reason": "pull",
      "X-Auto-Response-Suppress": "All",
    });
    expect(stored[0]!.headers["Message-ID"]).toMatch(/^<autogen-\d+-[0-9a-f]{16}@/);
    expect(stored[0]!.headers.Date).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
    expect(stored[0]!.html).toBe("<p>Hello <b>a@x.test</b></p>");
    expect(stored[0]!.text).toBe("Hello a@x.test");

    // A new process on the same data directory sends them, in the order queued, unchanged.
    const database = openDatabase(app.settings.database.path);
    const env2 = composeEnv(app.settings, database.db, createLogger("none"));
    env2.queue.start();
    await flushMail(env2);
    await env2.queue.stop();
    expect(mailItems(env2)).toHaveLength(0);
    database.close();
    const mails = await s.waitFor(2);
    expect(mails.map((m) => m.rcptTo)).toEqual([["a@x.test"], ["b@x.test"]]);
    const p = mails[0]!.parsed;
    expect(p.messageId).toBe(stored[0]!.headers["Message-ID"] as string);
    expect(p.date?.getTime()).toBe(Date.parse(stored[0]!.headers.Date as string));
    expect(p.from?.value).toEqual([{ name: "Bob Builder", address: "forge@forge.test" }]);
    expect(p.subject).toBe("[forge] Hello a@x.test");
    expect(p.html).toBe("<p>Hello <b>a@x.test</b></p>");
    expect(p.headers.get("x-gitea-reason")).toBe("pull");
  });

  test("a deferred delivery (451) waits out its retry delay in the queue; a flush does not wait for it", async () => {
    const s = await sink({ deferFirst: 1 });
    const app = makeTestApp(mailerIni(s.port));
    const lines = capture(app.env);
    const queuedAt = Date.now();
    expect(queueMail(app.env, [message("late@x.test")])).toBe(1);
    // The first attempt fails; the item stays, due again in ten seconds.
    const deadline = Date.now() + 30_000;
    let items = mailItems(app.env);
    while (!(items[0]?.attempts === 1 && items[0].leasedUntilMs === 0) && Date.now() < deadline) {
      await Bun.sleep(10);
      items = mailItems(app.env);
    }
    expect(items).toHaveLength(1);
    expect(items[0]!.attempts).toBe(1);
    expect(items[0]!.runAfterMs - queuedAt).toBeGreaterThanOrEqual(9_000);
    expect(lines.filter((l) => l.includes("WARN mail delivery failed, will retry"))).toHaveLength(1);
    expect(s.mails).toHaveLength(0);

    await flushMail(app.env);
    expect(s.mails.map((m) => m.rcptTo)).toEqual([["late@x.test"]]);
    expect(mailItems(app.env)).toHaveLength(0);
    expect(lines.some((l) => l.includes("ERROR"))).toBe(false);
  });

  test("a permanent refusal (5xx) is not retried, and is logged", async () => {
    const s = await sink({ rejectRecipient: /^nobody@/ });
    const app = makeTestApp(mailerIni(s.port));
    const lines = capture(app.env);
    expect(queueMail(app.env, [message("nobody@x.test")])).toBe(1);
    await flushMail(app.env);
    expect(mailItems(app.env)).toHaveLength(0);
    expect(lines.some((l) => l.includes("WARN mail delivery failed"))).toBe(false);
    const dropped = lines.filter((l) => l.includes("ERROR mail could not be delivered"));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toContain("attempts=1");
    expect(dropped[0]).toContain("test mail to nobody@x.test");
  });

  test("nothing is queued while [mailer] ENABLED is false", async () => {
    const app = makeTestApp("[mailer]\nENABLED = false\n");
    expect(queueMail(app.env, [message("a@x.test")])).toBe(0);
    expect(mailItems(app.env)).toHaveLength(0);
    await flushMail(app.env);
  });

  test("a queueing failure is logged, not thrown into the caller", async () => {
    const s = await sink();
    const app = makeTestApp(mailerIni(s.port));
    const lines = capture(app.env);
    // A message the queue cannot store (JSON has no form for a BigInt): the caller still goes on.
    const broken = message("a@x.test", { headers: { "X-Odd": 1n as unknown as string } });
    expect(queueMail(app.env, [message("b@x.test"), broken])).toBe(0);
    expect(lines.some((l) => l.includes("ERROR mail could not be queued"))).toBe(true);
    // All or nothing: the good message was not queued on its own either.
    expect(mailItems(app.env)).toHaveLength(0);
  });

  test("closeMail with nothing under way returns at once and later mail still goes out", async () => {
    const s = await sink();
    const app = makeTestApp(mailerIni(s.port));
    await closeMail(app.env, 5000);
    expect(queueMail(app.env, [message("after@x.test")])).toBe(1);
    await flushMail(app.env);
    expect(s.mails.map((m) => m.rcptTo)).toEqual([["after@x.test"]]);
  });
});
