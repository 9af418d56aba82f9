import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtpSink } from "../support/smtp-sink.ts";

/** `hearth admin sendmail` as an administrator runs it: a subprocess against a work dir whose app.ini points at the sink. */

const REPO = join(import.meta.dir, "../..");
const tmp = mkdtempSync(join(tmpdir(), "hearth-sendmail-"));
const sink = await startSmtpSink();
afterAll(async () => {
  await sink.close();
  rmSync(tmp, { recursive: true, force: true });
});

function workDir(name: string, ini: string): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "custom/conf"), { recursive: true });
  writeFileSync(join(dir, "custom/conf/app.ini"), `[log]\nLEVEL = warn\n${ini}`);
  return dir;
}

async function hearth(dir: string, args: string[], stdin?: string) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("HEARTH")) env[k] = v;
  const proc = Bun.spawn([process.execPath, "src/main.ts", ...args], {
    cwd: REPO,
    env: { ...env, HEARTH_WORK_DIR: dir },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const mailer = `[mailer]\nENABLED = true\nPROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${sink.port}\nFROM = "Forge" <forge@forge.test>\n`;

describe("hearth admin sendmail", () => {
  const dir = workDir("on", mailer);

  test("sends the message to every active user, after confirmation unless --force", async () => {
    for (const name of ["ann", "ben"]) {
      const r = await hearth(dir, ["admin", "user", "create", "--username", name, "--email", `${name}@example.com`, "--password", "password123"]);
      expect(r.code).toBe(0);
    }
    const declined = await hearth(dir, ["admin", "sendmail", "--title", "Maintenance", "--content", "<p>Down at noon</p>"], "n\n");
    expect(declined.code).toBe(0);
    expect(declined.stdout).toContain("The mail was not sent");

    const forced = await hearth(dir, ["admin", "sendmail", "--title", "Maintenance", "--content", "<p>Down at noon</p>", "--force"]);
    expect({ code: forced.code, stderr: forced.stderr }).toEqual({ code: 0, stderr: "" });
    expect(forced.stdout).toBe("Sent 2 email(s) to all users\n");
    // The command waits for delivery before it exits.
    expect(sink.mails.map((m) => m.rcptTo[0]).sort()).toEqual(["ann@example.com", "ben@example.com"]);
    const p = sink.mails[0]!.parsed;
    expect(p.subject).toBe("Maintenance");
    expect(p.from?.value).toEqual([{ name: "Forge", address: "forge@forge.test" }]);
    expect(p.html).toBe("<p>Down at noon</p>");
    expect(p.text?.trim()).toBe("Down at noon");
  });

  test("without --force and without an answer, nothing is sent", async () => {
    const before = sink.mails.length;
    const r = await hearth(dir, ["admin", "sendmail", "--title", "x"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("--force");
    expect(sink.mails.length).toBe(before);
  });

  test("refuses while the mailer is disabled", async () => {
    const off = workDir("off", "");
    const r = await hearth(off, ["admin", "sendmail", "--title", "x", "--force"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("mail service is not enabled");
  });
});
