import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { MailerSettings } from "../config/mailer.ts";
import type { Logger } from "../lib/log.ts";
import type { RenderedMail } from "./message.ts";

/** Delivers one message or rejects; the mail queue above it decides about retries. */
export interface MailTransport {
  /** `signal` abandons the send (the connection is dropped and the promise rejects). */
  send(mail: RenderedMail, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * Why a delivery failed, and whether trying again can help: a 5xx reply is the server's final
 * word (unknown mailbox, refused sender), everything else (4xx, a refused or dropped connection,
 * a timeout) may pass.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "MailDeliveryError";
  }
}

// Gitea leaves these to Go's defaults (no limit); a stuck server must not hold the mail queue for ever.
const CONNECTION_TIMEOUT_MS = 30_000;
const SOCKET_TIMEOUT_MS = 60_000;

/** nodemailer's SMTP options for `[mailer]`, protocol by protocol as Gitea's services/mailer/sender/smtp.go. */
export function smtpOptions(mailer: MailerSettings): SMTPTransport.Options {
  // nodemailer checks the certificate against SMTP_ADDR itself (when it is a name, not an IP).
  const tls = { rejectUnauthorized: !mailer.forceTrustServerCert };
  const options: SMTPTransport.Options = {
    host: mailer.smtpAddr,
    port: mailer.smtpPort,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    logger: false,
  };
  if (mailer.user) options.auth = { user: mailer.user, pass: mailer.passwd };
  switch (mailer.protocol) {
    case "smtps":
      return { ...options, secure: true, tls };
    case "smtp+starttls":
      // Gitea refuses a server without STARTTLS rather than sending the password in the clear.
      return { ...options, secure: false, requireTLS: true, tls };
    case "smtp+unix":
      return {
        ...options,
        host: "localhost",
        port: 0,
        ignoreTLS: true,
        getSocket: (_opts, done) => {
          import("node:net").then(({ connect }) => {
            const socket = connect({ path: mailer.smtpAddr });
            socket.once("error", (err) => done(err));
            socket.once("connect", () => {
              socket.removeAllListeners("error");
              done(null, { connection: socket });
            });
          }, done);
        },
      };
    default:
      // Plain smtp: Gitea sends without TLS even when the server offers STARTTLS.
      return { ...options, secure: false, ignoreTLS: true };
  }
}

function deliveryError(err: unknown): MailDeliveryError {
  const e = err as { message?: string; responseCode?: number };
  const permanent = typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600;
  return new MailDeliveryError(e.message ?? String(err), permanent);
}

/** The transport `[mailer]` describes. Call only when the mailer is enabled. */
export function createMailTransport(mailer: MailerSettings, log: Logger): MailTransport {
  if (mailer.protocol === "dummy") {
    // Gitea's dummy sender: nothing leaves the machine, the log shows what would have.
    return {
      async send(mail) {
        log.info("mail not sent (PROTOCOL = dummy)", { to: mail.envelope.to.join(", "), subject: String(mail.headers.Subject ?? ""), info: mail.info });
      },
      close() {},
    };
  }
  // nodemailer (and the node:net, node:tls and node:dns it brings) is loaded with the first message,
  // not at start-up: it was a tenth of the executable's script (bench/startup.ts).
  let transporter: Promise<ReturnType<typeof import("nodemailer").createTransport>> | undefined;
  const connect = () => (transporter ??= import("nodemailer").then((m) => m.default.createTransport(smtpOptions(mailer))));
  return {
    async send(mail, signal) {
      try {
        await (await connect()).sendMail({
          envelope: mail.envelope,
          headers: mail.headers,
          text: mail.text,
          html: mail.html,
          signal,
          // Never read files or fetch URLs named in a message: its parts are always given inline.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
      } catch (err) {
        throw deliveryError(err);
      }
    },
    close() {
      void transporter?.then(
        (t) => t.close(),
        () => {},
      );
    },
  };
}
