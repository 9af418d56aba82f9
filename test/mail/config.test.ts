import { describe, expect, test } from "bun:test";
import { parseIni } from "../../src/config/ini-source.ts";
import { buildSettings, type Settings } from "../../src/config/settings.ts";
import { ConfigError } from "../../src/config/reader.ts";

const inputs = { workPath: "/srv/hearth", customPath: "/srv/hearth/custom", configFile: "/srv/hearth/custom/conf/app.ini" };

function settingsFrom(ini: string): Settings {
  return buildSettings(parseIni(ini), inputs).settings;
}

function configError(ini: string): string {
  try {
    buildSettings(parseIni(ini), inputs);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`expected a ConfigError for:\n${ini}`);
}

const enabled = (extra: string) => `[mailer]\nENABLED = true\n${extra}`;

describe("[mailer] and [service] ENABLE_NOTIFY_MAIL", () => {
  test("defaults: the mailer and notification mail are off", () => {
    const s = settingsFrom("");
    expect(s.mailer.enabled).toBe(false);
    expect(s.service.enableNotifyMail).toBe(false);
    expect(s.mailer.subjectPrefix).toBe("");
    expect(s.mailer.forceTrustServerCert).toBe(false);
    expect(s.mailer.sendAsPlainText).toBe(false);
    expect(settingsFrom("[service]\nENABLE_NOTIFY_MAIL = true").service.enableNotifyMail).toBe(true);
  });

  test("a disabled mailer checks only the types of its keys, as Gitea skips the section", () => {
    // No address, no sender, an unusable protocol-less port: fine while ENABLED is false.
    expect(settingsFrom("[mailer]\nSMTP_PORT = 2525\nFROM = not an address").mailer.enabled).toBe(false);
    expect(configError("[mailer]\nSMTP_PORT = lots")).toContain("[mailer] SMTP_PORT");
    expect(configError("[mailer]\nENABLED = sometimes")).toContain("[mailer] ENABLED");
    expect(configError("[mailer]\nFORCE_TRUST_SERVER_CERT = maybe")).toContain("[mailer] FORCE_TRUST_SERVER_CERT");
  });

  test("SMTP_PORT defaults by protocol, as Gitea: 25, 465, 587", () => {
    const base = "SMTP_ADDR = mail.example.com\nFROM = hearth@example.com\n";
    expect(settingsFrom(enabled(base + "PROTOCOL = smtp")).mailer.smtpPort).toBe(25);
    expect(settingsFrom(enabled(base + "PROTOCOL = smtps")).mailer.smtpPort).toBe(465);
    expect(settingsFrom(enabled(base + "PROTOCOL = smtp+starttls")).mailer.smtpPort).toBe(587);
    expect(settingsFrom(enabled(base + "PROTOCOL = smtps\nSMTP_PORT = 2465")).mailer.smtpPort).toBe(2465);
  });

  test("PROTOCOL is inferred from a socket path or a well-known port, and refused when it cannot be", () => {
    const base = "FROM = hearth@example.com\n";
    expect(settingsFrom(enabled(base + "SMTP_ADDR = /run/smtp.sock")).mailer.protocol).toBe("smtp+unix");
    expect(settingsFrom(enabled(base + "SMTP_ADDR = m.test\nSMTP_PORT = 465")).mailer.protocol).toBe("smtps");
    expect(settingsFrom(enabled(base + "SMTP_ADDR = m.test\nSMTP_PORT = 587")).mailer.protocol).toBe("smtp+starttls");
    expect(settingsFrom(enabled(base + "SMTP_ADDR = m.test\nSMTP_PORT = 25")).mailer.protocol).toBe("smtp");
    expect(configError(enabled(base + "SMTP_ADDR = m.test\nSMTP_PORT = 2525"))).toContain("[mailer] PROTOCOL");
    expect(configError(enabled(base + "SMTP_ADDR = m.test"))).toContain("[mailer] PROTOCOL");
  });

  test("an unknown protocol and sendmail are refused naming the key", () => {
    const base = "SMTP_ADDR = m.test\nFROM = hearth@example.com\n";
    expect(configError(enabled(base + "PROTOCOL = carrier-pigeon"))).toContain("[mailer] PROTOCOL");
    const sendmail = configError(enabled(base + "PROTOCOL = sendmail"));
    expect(sendmail).toContain("[mailer] PROTOCOL");
    expect(sendmail).toContain("sendmail is not supported");
    // Refused even while disabled: it can never work, so it should not wait until someone enables mail.
    expect(configError("[mailer]\nPROTOCOL = sendmail")).toContain("[mailer] PROTOCOL");
  });

  test("an enabled mailer needs SMTP_ADDR (not for dummy) and a sender", () => {
    expect(configError(enabled("PROTOCOL = smtp\nFROM = a@b.test"))).toContain("[mailer] SMTP_ADDR");
    expect(configError(enabled("PROTOCOL = smtp\nSMTP_ADDR = m.test"))).toContain("[mailer] FROM");
    expect(configError(enabled("PROTOCOL = smtp\nSMTP_ADDR = m.test\nFROM = nobody"))).toContain("[mailer] FROM");
    expect(configError(enabled("PROTOCOL = smtp\nSMTP_ADDR = m.test\nFROM = a@b.test, c@d.test"))).toContain("[mailer] FROM");
    const dummy = settingsFrom(enabled("PROTOCOL = dummy\nFROM = a@b.test"));
    expect(dummy.mailer.protocol).toBe("dummy");
  });

  test("FROM is parsed into name and address, and falls back to USER as in Gitea", () => {
    const named = settingsFrom(enabled('PROTOCOL = smtp\nSMTP_ADDR = m.test\nFROM = "Forge Bot" <bot@forge.test>'));
    expect(named.mailer.fromName).toBe("Forge Bot");
    expect(named.mailer.fromEmail).toBe("bot@forge.test");
    const viaUser = settingsFrom(enabled("PROTOCOL = smtps\nSMTP_ADDR = m.test\nUSER = me@forge.test\nPASSWD = pw"));
    expect(viaUser.mailer.fromEmail).toBe("me@forge.test");
    expect(viaUser.mailer.fromName).toBe("");
    expect(viaUser.mailer.passwd).toBe("pw");
  });

  test("ENVELOPE_FROM: empty keeps FROM, <> is the null sender, anything else must be an address", () => {
    const base = "PROTOCOL = smtp\nSMTP_ADDR = m.test\nFROM = a@b.test\n";
    expect(settingsFrom(enabled(base)).mailer.overrideEnvelopeFrom).toBe(false);
    const nul = settingsFrom(enabled(base + "ENVELOPE_FROM = <>")).mailer;
    expect([nul.overrideEnvelopeFrom, nul.envelopeFrom]).toEqual([true, ""]);
    const bounce = settingsFrom(enabled(base + "ENVELOPE_FROM = Bounces <bounce@b.test>")).mailer;
    expect([bounce.overrideEnvelopeFrom, bounce.envelopeFrom]).toEqual([true, "bounce@b.test"]);
    expect(configError(enabled(base + "ENVELOPE_FROM = bounces"))).toContain("[mailer] ENVELOPE_FROM");
  });
});
