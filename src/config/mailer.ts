import addressparser from "nodemailer/lib/addressparser";
import { ConfigError, type ConfigReader } from "./reader.ts";

/**
 * Gitea's `[mailer] PROTOCOL` values that hearth implements. `sendmail` is refused: it would run
 * an external program, and only the git layer spawns processes.
 */
export const MAIL_PROTOCOLS = ["smtp", "smtps", "smtp+starttls", "smtp+unix", "dummy"] as const;
export type MailProtocol = (typeof MAIL_PROTOCOLS)[number];

/** `[mailer]`, validated as Gitea's modules/setting/mailer.go does, but refusing (not logging) what cannot work. */
export interface MailerSettings {
  enabled: boolean;
  protocol: MailProtocol;
  /** Host name or IP; the socket path for smtp+unix. */
  smtpAddr: string;
  /** 0 for smtp+unix and dummy. */
  smtpPort: number;
  /** FROM as written (`"Name" <addr>` or `addr`). */
  from: string;
  fromName: string;
  fromEmail: string;
  /** Whether ENVELOPE_FROM replaces the SMTP envelope sender (MAIL FROM); `envelopeFrom` "" is the null sender `<>`. */
  overrideEnvelopeFrom: boolean;
  envelopeFrom: string;
  user: string;
  passwd: string;
  subjectPrefix: string;
  forceTrustServerCert: boolean;
  sendAsPlainText: boolean;
}

const DEFAULT_PORTS: Partial<Record<MailProtocol, number>> = { smtp: 25, smtps: 465, "smtp+starttls": 587 };

/** The one mailbox of an address field, or undefined when it is not exactly one `name <local@domain>`. */
function mailbox(value: string): { name: string; address: string } | undefined {
  const parsed = addressparser(value);
  const only = parsed.length === 1 ? parsed[0] : undefined;
  if (!only || only.group || !only.address || !/^[^@\s]+@[^@\s]+$/.test(only.address)) return undefined;
  return { name: only.name, address: only.address };
}

/**
 * Every key is read (and so type-checked and documented) whatever ENABLED says; what only matters
 * for sending (a protocol, an address, a sender) is required only when the mailer is enabled, as in
 * Gitea, which skips the section when ENABLED is false.
 */
export function readMailer(r: ConfigReader): MailerSettings {
  const enabled = r.bool("mailer", "ENABLED", false);
  const rawProtocol = r.string("mailer", "PROTOCOL", "");
  if (rawProtocol.toLowerCase() === "sendmail") {
    throw new ConfigError("mailer", "PROTOCOL", rawProtocol, `sendmail is not supported by hearth; use one of ${MAIL_PROTOCOLS.join(", ")}`);
  }
  let protocol: MailProtocol | "" = rawProtocol === "" ? "" : r.oneOf("mailer", "PROTOCOL", MAIL_PROTOCOLS, "smtp");
  const smtpAddr = r.string("mailer", "SMTP_ADDR", "");
  const configuredPort = r.int("mailer", "SMTP_PORT", 0, { min: 0, max: 65535 });
  const user = r.string("mailer", "USER", "");
  const passwd = r.string("mailer", "PASSWD", "");
  // Gitea: FROM falls back to USER, which is often the sender's address.
  const from = r.string("mailer", "FROM", user);
  const envelopeFrom = r.string("mailer", "ENVELOPE_FROM", "");
  const settings: MailerSettings = {
    enabled,
    protocol: "smtp",
    smtpAddr,
    smtpPort: configuredPort,
    from,
    fromName: "",
    fromEmail: "",
    overrideEnvelopeFrom: false,
    envelopeFrom: "",
    user,
    passwd,
    subjectPrefix: r.string("mailer", "SUBJECT_PREFIX", ""),
    forceTrustServerCert: r.bool("mailer", "FORCE_TRUST_SERVER_CERT", false),
    sendAsPlainText: r.bool("mailer", "SEND_AS_PLAIN_TEXT", false),
  };
  if (!enabled) return settings;

  if (protocol === "") {
    // Gitea infers the protocol from the address (a path means a socket) or from a well-known port.
    if (/[/\\]/.test(smtpAddr)) protocol = "smtp+unix";
    else {
      const byPort = (Object.keys(DEFAULT_PORTS) as MailProtocol[]).find((p) => DEFAULT_PORTS[p] === configuredPort);
      // Gitea logs an error and guesses smtps here; a guess that fails on every send is better refused now.
      if (!byPort) {
        throw new ConfigError(
          "mailer",
          "PROTOCOL",
          "",
          `required when ENABLED = true and SMTP_PORT (${configuredPort || "unset"}) is not 25, 465 or 587`,
        );
      }
      protocol = byPort;
    }
  }
  settings.protocol = protocol;
  if (protocol !== "dummy") {
    if (!smtpAddr) throw new ConfigError("mailer", "SMTP_ADDR", "", `required when ENABLED = true and PROTOCOL = ${protocol}`);
    if (protocol === "smtp+unix") settings.smtpPort = 0;
    else settings.smtpPort = configuredPort || DEFAULT_PORTS[protocol]!;
  } else settings.smtpPort = 0;

  // Gitea only logs "email system may not work" without a sender; no mail server accepts a message without From.
  if (!from) throw new ConfigError("mailer", "FROM", "", "required when ENABLED = true (or set USER to the sender's address)");
  const sender = mailbox(from);
  if (!sender) throw new ConfigError("mailer", "FROM", from, 'expected one address, as "Name" <user@example.com> or user@example.com');
  settings.fromName = sender.name;
  settings.fromEmail = sender.address;

  if (envelopeFrom === "<>") settings.overrideEnvelopeFrom = true;
  else if (envelopeFrom !== "") {
    const envelope = mailbox(envelopeFrom);
    if (!envelope) throw new ConfigError("mailer", "ENVELOPE_FROM", envelopeFrom, "expected one address, or <> for the null sender");
    settings.overrideEnvelopeFrom = true;
    settings.envelopeFrom = envelope.address;
  }
  return settings;
}
