import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

/** One message as the sink received it: the SMTP envelope, the raw bytes and the parsed form. */
export interface SunkMail {
  mailFrom: string;
  rcptTo: string[];
  /** The user the client authenticated as, if it did. */
  user?: string;
  /** Whether the connection was TLS (smtps, or upgraded with STARTTLS) when the message came. */
  secure: boolean;
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSinkOptions {
  /** smtps: TLS from the first byte (smtp-server's built-in self-signed certificate). */
  secure?: boolean;
  /** Offer STARTTLS on a plain connection (default false: a bare SMTP relay). */
  starttls?: boolean;
  /** Require AUTH with these credentials. */
  auth?: { user: string; pass: string };
  /** Listen on this Unix socket path instead of 127.0.0.1:0. */
  socketPath?: string;
  /** Refuse RCPT TO for addresses matching this with a 550. */
  rejectRecipient?: RegExp;
  /** Refuse the first this many RCPT TO with a 451 (try again later), as greylisting does. */
  deferFirst?: number;
}

export interface SmtpSink {
  /** 0 when listening on a socket path. */
  port: number;
  mails: SunkMail[];
  /** Waits until at least `count` messages arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SunkMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps every message it is given, for the mail tests. */
export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  let deferred = 0;
  const serverOptions: SMTPServerOptions = {
    secure: opts.secure ?? false,
    logger: false,
    disabledCommands: [...(opts.starttls || opts.secure ? [] : ["STARTTLS"]), ...(opts.auth ? [] : ["AUTH"])],
    authOptional: !opts.auth,
    // Tests send credentials over plain loopback too, to check that hearth does not.
    allowInsecureAuth: true,
    onAuth(auth, _session, done) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) done(null, { user: auth.username });
      else done(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, done) {
      if (opts.rejectRecipient?.test(address.address)) {
        const err = new Error("mailbox unavailable") as Error & { responseCode: number };
        err.responseCode = 550;
        done(err);
      } else if (deferred < (opts.deferFirst ?? 0)) {
        deferred++;
        const err = new Error("greylisted, try again later") as Error & { responseCode: number };
        err.responseCode = 451;
        done(err);
      } else done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          secure: session.secure,
          raw,
          parsed: await simpleParser(raw),
        });
        done();
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  await new Promise<void>((resolve, reject) => {
    server.on("error", reject);
    if (opts.socketPath) server.listen(opts.socketPath, () => resolve());
    else server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    mails,
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`smtp sink: expected ${count} mail(s), got ${mails.length}`);
        await Bun.sleep(10);
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
