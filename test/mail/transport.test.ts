import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseIni } from "../../src/config/ini-source.ts";
import { buildSettings } from "../../src/config/settings.ts";
import type { MailerSettings } from "../../src/config/mailer.ts";
import { createLogger } from "../../src/lib/log.ts";
import type { MailMessage } from "../../src/mail/message.ts";
import { createMailTransport, MailDeliveryError, type MailTransport } from "../../src/mail/transport.ts";
import { MailOutbox } from "../../src/services/mail/outbox.ts";
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
  const transport = createMailTransport(m, "forge.test", quiet);
  try {
    await transport.send(msg);
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
    const transport = createMailTransport(mailer("PROTOCOL = dummy"), "forge.test", log);
    await transport.send(message());
    expect(lines.join("")).toContain("mail not sent (PROTOCOL = dummy)");
    expect(lines.join("")).toContain("alice@example.com");
  });
});

describe("MailOutbox", () => {
  /** Fails the first `failures` sends (with `permanent`), then records. */
  function flakyTransport(failures: number, permanent = false) {
    const sent: MailMessage[] = [];
    let calls = 0;
    const transport: MailTransport & { sent: MailMessage[]; calls(): number; closed: boolean } = {
      sent,
      calls: () => calls,
      closed: false,
      async send(msg) {
        calls++;
        await Bun.sleep(1);
        if (calls <= failures) throw new MailDeliveryError("421 try again later", permanent);
        sent.push(msg);
      },
      close() {
        transport.closed = true;
      },
    };
    return transport;
  }

  test("enqueue returns at once; messages go out in order in the background", async () => {
    const transport = flakyTransport(0);
    const outbox = new MailOutbox(transport, quiet);
    outbox.enqueue(message({ to: "a@x.test" }));
    outbox.enqueue(message({ to: "b@x.test" }));
    expect(transport.sent).toHaveLength(0);
    await outbox.flush();
    expect(transport.sent.map((m) => m.to)).toEqual(["a@x.test", "b@x.test"]);
  });

  test("a failed delivery is retried after its delay, and logged", async () => {
    const transport = flakyTransport(1);
    const { lines, log } = capturingLog();
    const outbox = new MailOutbox(transport, log, [30, 30]);
    outbox.enqueue(message());
    const deadline = Date.now() + 2000;
    while (transport.sent.length === 0 && Date.now() < deadline) await Bun.sleep(5);
    expect(transport.calls()).toBe(2);
    expect(transport.sent).toHaveLength(1);
    expect(lines.filter((l) => l.includes("WARN mail delivery failed, will retry"))).toHaveLength(1);
    expect(lines.some((l) => l.includes("ERROR"))).toBe(false);
  });

  test("flush does not wait out retry delays; after the last retry the mail is dropped with an error", async () => {
    const transport = flakyTransport(10);
    const { lines, log } = capturingLog();
    const outbox = new MailOutbox(transport, log, [60_000, 60_000]);
    outbox.enqueue(message());
    const started = Date.now();
    await outbox.flush();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(transport.calls()).toBe(3);
    expect(lines.filter((l) => l.includes("WARN mail delivery failed"))).toHaveLength(2);
    const dropped = lines.filter((l) => l.includes("ERROR mail could not be delivered"));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toContain("attempts=3");
    expect(dropped[0]).toContain("info=");
  });

  test("a permanent refusal is not retried", async () => {
    const transport = flakyTransport(10, true);
    const { lines, log } = capturingLog();
    const outbox = new MailOutbox(transport, log, [0, 0]);
    outbox.enqueue(message());
    await outbox.flush();
    expect(transport.calls()).toBe(1);
    expect(lines.filter((l) => l.includes("ERROR mail could not be delivered"))).toHaveLength(1);
  });

  test("close delivers what is queued, releases the transport and refuses later mail", async () => {
    const transport = flakyTransport(0);
    const { lines, log } = capturingLog();
    const outbox = new MailOutbox(transport, log);
    outbox.enqueue(message());
    await outbox.close();
    expect(transport.sent).toHaveLength(1);
    expect(transport.closed).toBe(true);
    outbox.enqueue(message());
    await outbox.flush();
    expect(transport.sent).toHaveLength(1);
    expect(lines.some((l) => l.includes("mail dropped: the mailer is shut down"))).toBe(true);
  });
});
