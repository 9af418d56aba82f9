import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseIni } from "../../src/config/ini-source.ts";
import { buildSettings } from "../../src/config/settings.ts";
import type { MailerSettings } from "../../src/config/mailer.ts";
import { createLogger } from "../../src/lib/log.ts";
import { renderMail, type MailMessage } from "../../src/mail/message.ts";
import { createMailTransport, MailDeliveryError } from "../../src/mail/transport.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";

const tmp = mkdtempSync(join(tmpdir(), "hearth-mail-"));
const sinks: SmtpSink[] = [];
afterAll(async () => {
  await Promise.all(sinks.map((s) => s.close()));
  rmSync(tmp, { recursive: true, force: true });
});

async function sink(opts: Parameters<typeof startSmtpSink>[0] = {}): Promise<SmtpSink> {
  const s = await startSmtpSink(opts);
  sinks.push(s);
  return s;
}

function mailer(ini: string): MailerSettings {
  const raw = parseIni(`[server]\nDOMAIN = forge.test\n[mailer]\nENABLED = true\nFROM = "Forge" <forge@forge.test>\n${ini}`);
  return buildSettings(raw, { workPath: tmp, customPath: join(tmp, "custom"), configFile: join(tmp, "app.ini") }).settings.mailer;
}

function capturingLog() {
  const lines: string[] = [];
  return { lines, log: createLogger("debug", (l) => lines.push(l)) };
}

const quiet = createLogger("none");

function message(over: Partial<MailMessage> = {}): MailMessage {
  return {
    to: "alice@example.com",
    fromName: "Bob Builder",
    subject: "Re: [bob/tools] Fix the hammer (#3)",
    html: "<p><b>@bob</b> merged #3 into main.</p>",
    text: "@bob merged #3 into main.",
    messageId: "<bob/tools/pulls/3/merge/1@forge.test>",
    inReplyTo: "<bob/tools/pulls/3@forge.test>",
    references: ["<bob/tools/pulls/3@forge.test>"],
    headers: { "X-Gitea-Reason": "pull", "List-ID": "bob/tools <tools.bob.forge.test>" },
    info: "test mail",
    ...over,
  };
}

async function sendVia(m: MailerSettings, msg = message()): Promise<void> {
  const transport = createMailTransport(m, quiet);
  try {
    await transport.send(renderMail(msg, m, "forge.test"));
  } finally {
    transport.close();
  }
}

async function refusal(m: MailerSettings, msg = message()): Promise<MailDeliveryError> {
  try {
    await sendVia(m, msg);
  } catch (err) {
    expect(err).toBeInstanceOf(MailDeliveryError);
    return err as MailDeliveryError;
  }
  throw new Error("expected the send to fail");
}

describe("SMTP transport (nodemailer) against a real SMTP server", () => {
  test("smtp: the message arrives with Gitea's headers, both parts, and nothing encrypted", async () => {
    // The sink offers STARTTLS: plain smtp must not take it (Gitea sends smtp without TLS).
    const s = await sink({ starttls: true });
    await sendVia(mailer(`PROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${s.port}\nSUBJECT_PREFIX = [forge]`));
    const [mail] = await s.waitFor(1);
    expect(mail!.secure).toBe(false);
    expect(mail!.mailFrom).toBe("forge@forge.test");
    expect(mail!.rcptTo).toEqual(["alice@example.com"]);
    const p = mail!.parsed;
    expect(p.from?.value).toEqual([{ name: "Bob Builder", address: "forge@forge.test" }]);
    expect(p.subject).toBe("[forge] Re: [bob/tools] Fix the hammer (#3)");
    expect(p.messageId).toBe("<bob/tools/pulls/3/merge/1@forge.test>");
    expect(p.inReplyTo).toBe("<bob/tools/pulls/3@forge.test>");
    expect(p.references).toBe("<bob/tools/pulls/3@forge.test>");
    expect(p.headers.get("x-gitea-reason")).toBe("pull");
    expect(p.headers.get("x-auto-response-suppress")).toBe("All");
    expect(p.text?.trim()).toBe("@bob merged #3 into main.");
    expect(p.html).toContain("<b>@bob</b> merged #3 into main.");
    expect(p.date).toBeInstanceOf(Date);
  });

  test("a sender name with quotes, commas, brackets or accents arrives as written; a message's headers cannot replace From or Subject", async () => {
    const s = await sink();
    const m = mailer(`PROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${s.port}`);
    const names = ['Bob "The" Builder, Jr.', "Zoë <zoe@evil.test>", "back\\slash"];
    for (const fromName of names) {
      await sendVia(m, message({ fromName, headers: { From: "evil@evil.test", subject: "replaced", "X-Gitea-Reason": "pull" } }));
    }
    const mails = await s.waitFor(names.length);
    expect(mails.map((x) => x.parsed.from?.value)).toEqual(names.map((name) => [{ name, address: "forge@forge.test" }]));
    expect(mails.every((x) => x.parsed.subject === "Re: [bob/tools] Fix the hammer (#3)")).toBe(true);
    expect(mails.every((x) => x.raw.split("\r\n\r\n")[0]!.match(/^(from|subject):/gim)?.length === 2)).toBe(true);
  });

  test("SEND_AS_PLAIN_TEXT leaves out the HTML part; a missing Message-ID is generated on DOMAIN", async () => {
    const s = await sink();
    await sendVia(
      mailer(`PROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${s.port}\nSEND_AS_PLAIN_TEXT = true`),
      message({ messageId: undefined }),
    );
    const [mail] = await s.waitFor(1);
    expect(mail!.parsed.html).toBe(false);
    expect(mail!.parsed.text?.trim()).toBe("@bob merged #3 into main.");
    expect(mail!.parsed.messageId).toMatch(/^<autogen-\d+-[0-9a-f]{16}@forge\.test>$/);
  });

  test("ENVELOPE_FROM replaces the envelope sender, <> sends with the null sender; the From header stays", async () => {
    const s = await sink();
    const base = `PROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${s.port}\n`;
    await sendVia(mailer(base + "ENVELOPE_FROM = bounces@forge.test"));
    await sendVia(mailer(base + "ENVELOPE_FROM = <>"));
    const mails = await s.waitFor(2);
    expect(mails.map((m) => m.mailFrom)).toEqual(["bounces@forge.test", ""]);
    expect(mails.map((m) => m.parsed.from?.value[0]?.address)).toEqual(["forge@forge.test", "forge@forge.test"]);
  });

  test("smtps with a password: TLS from the start; a self-signed certificate needs FORCE_TRUST_SERVER_CERT", async () => {
    const s = await sink({ secure: true, auth: { user: "forge", pass: "s3cret" } });
    const base = `PROTOCOL = smtps\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${s.port}\nUSER = forge\nPASSWD = s3cret\n`;
    const untrusted = await refusal(mailer(base));
    expect(untrusted.permanent).toBe(false);
    expect(untrusted.message).toMatch(/certificate/i);
    expect(s.mails).toHaveLength(0);
    await sendVia(mailer(base + "FORCE_TRUST_SERVER_CERT = true"));
    const [mail] = await s.waitFor(1);
    expect([mail!.secure, mail!.user]).toEqual([true, "forge"]);
  });

  test("smtp+starttls upgrades before AUTH, and refuses a server without STARTTLS", async () => {
    const s = await sink({ starttls: true, auth: { user: "forge", pass: "s3cret" } });
    await sendVia(
      mailer(`PROTOCOL = smtp+starttls\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${s.port}\nUSER = forge\nPASSWD = s3cret\nFORCE_TRUST_SERVER_CERT = true`),
    );
    const [mail] = await s.waitFor(1);
    expect([mail!.secure, mail!.user]).toEqual([true, "forge"]);

    const bare = await sink({ auth: { user: "forge", pass: "s3cret" } });
    const noStarttls = await refusal(
      mailer(`PROTOCOL = smtp+starttls\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${bare.port}\nUSER = forge\nPASSWD = s3cret\nFORCE_TRUST_SERVER_CERT = true`),
    );
    expect(noStarttls.message).toMatch(/STARTTLS/);
    expect(bare.mails).toHaveLength(0);
  });

  test("smtp+unix talks SMTP over the socket SMTP_ADDR", async () => {
    const path = join(tmp, "smtp.sock");
    const s = await sink({ socketPath: path });
    await sendVia(mailer(`PROTOCOL = smtp+unix\nSMTP_ADDR = ${path}`));
    const [mail] = await s.waitFor(1);
    expect(mail!.rcptTo).toEqual(["alice@example.com"]);
  });

  test("a 5xx refusal is permanent, a refused connection is not", async () => {
    const s = await sink({ rejectRecipient: /^nobody@/ });
    const rejected = await refusal(
      mailer(`PROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${s.port}`),
      message({ to: "nobody@example.com" }),
    );
    expect(rejected.permanent).toBe(true);
    const dead = await sink();
    await dead.close();
    const refused = await refusal(mailer(`PROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${dead.port}`));
    expect(refused.permanent).toBe(false);
  });

  test("dummy only logs", async () => {
    const { lines, log } = capturingLog();
    const m = mailer("PROTOCOL = dummy");
    const transport = createMailTransport(m, log);
    await transport.send(renderMail(message(), m, "forge.test"));
    expect(lines.join("")).toContain("mail not sent (PROTOCOL = dummy)");
    expect(lines.join("")).toContain("alice@example.com");
  });
});
