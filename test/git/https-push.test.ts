import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hearthOk, startWeb } from "../support/cli.ts";
import { gitClient, gitOk } from "../support/git.ts";

/**
 * `[server] PROTOCOL = https` with a self-signed certificate, as a homelab runs it: the git hooks
 * call the server back at LOCAL_ROOT_URL, which must not depend on the public certificate being
 * trusted (Gitea's internal requests skip verification too).
 */
const dir = mkdtempSync(join(tmpdir(), "hearth-https-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function selfSignedCertificate(): Promise<{ cert: string; key: string }> {
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  const proc = Bun.spawn(
    ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost"],
    { stdout: "ignore", stderr: "pipe" },
  );
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text());
  return { cert, key };
}

/** fetch to the test server, which presents the untrusted certificate. */
const insecure = (url: string, init: RequestInit = {}) => fetch(url, { ...init, tls: { rejectUnauthorized: false } } as RequestInit);

describe("HTTPS with a self-signed certificate", () => {
  test("git push works: the hooks reach the server despite the untrusted certificate", async () => {
    const { cert, key } = await selfSignedCertificate();
    const config = join(dir, "app.ini");
    writeFileSync(config, `[server]\nPROTOCOL = https\nHTTP_ADDR = 127.0.0.1\nCERT_FILE = ${cert}\nKEY_FILE = ${key}\n[log]\nLEVEL = info\n`);
    const web = await startWeb(dir, config);
    try {
      expect(web.url).toStartWith("https://");
      await hearthOk(dir, ["admin", "user", "create", "--admin", "-u", "root", "-e", "root@example.com", "-p", "password123", "--config", config]);
      const token = (await hearthOk(dir, ["admin", "user", "generate-access-token", "-u", "root", "--raw", "--config", config])).trim();
      const base = `https://127.0.0.1:${web.port}`;
      const created = await insecure(`${base}/api/v1/user/repos`, {
        method: "POST",
        headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "secure" }),
      });
      expect(created.status).toBe(201);

      const work = join(dir, "work");
      await gitOk(["init", "-q", "-b", "main", work]);
      writeFileSync(join(work, "README.md"), "over TLS\n");
      await gitOk(["add", "."], { cwd: work });
      await gitOk(["commit", "-q", "-m", "first"], { cwd: work });
      // The client trusts the certificate by choice; the hooks run by the server must not need to.
      const push = await gitClient(
        ["-c", "http.sslVerify=false", "push", `https://root:${token}@127.0.0.1:${web.port}/root/secure.git`, "main"],
        { cwd: work },
      );
      expect(push.stderr).not.toContain("cannot reach the server");
      expect(push.code).toBe(0);

      // post-receive reached the server too: the branch table knows the pushed branch.
      const branch = await insecure(`${base}/api/v1/repos/root/secure/branches/main`, { headers: { Authorization: `token ${token}` } });
      expect(branch.status).toBe(200);
      const body = (await branch.json()) as { commit: { message: string } };
      expect(body.commit.message.trim()).toBe("first");
    } finally {
      web.proc.kill("SIGKILL");
    }
  });
});
