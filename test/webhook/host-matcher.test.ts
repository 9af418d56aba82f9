import { afterAll, describe, expect, test } from "bun:test";
import { HostMatchList } from "../../src/outbound/host-matcher.ts";
import { formatIP, parseIP } from "../../src/outbound/ip.ts";
import { OutboundRefused, outboundFetch, type OutboundPolicy } from "../../src/outbound/request.ts";

const ip = (s: string) => {
  const v = parseIP(s);
  if (!v) throw new Error(`not an IP: ${s}`);
  return v;
};
const allows = (list: string, host: string, addr: string) => new HostMatchList("webhook.ALLOWED_HOST_LIST", list).matchHostOrIP(host, ip(addr));

describe("IP parsing", () => {
  test("IPv4, IPv6 and IPv4-mapped IPv6 (seen as IPv4, as Go's To4 does)", () => {
    expect(formatIP(ip("192.168.1.20"))).toBe("192.168.1.20");
    expect(formatIP(ip("::1"))).toBe("::1");
    expect(formatIP(ip("2001:DB8:0:0:0:0:0:1"))).toBe("2001:db8::1");
    expect(formatIP(ip("[fe80::1%eth0]"))).toBe("fe80::1");
    expect(formatIP(ip("::ffff:127.0.0.1"))).toBe("127.0.0.1");
    expect(formatIP(ip("::ffff:7f00:1"))).toBe("127.0.0.1");
    for (const bad of ["1.2.3", "1.2.3.256", "01.2.3.4", "1::2::3", "gggg::1", "example.com", ""]) expect(parseIP(bad)).toBeUndefined();
  });
});

describe("ALLOWED_HOST_LIST (Gitea's hostmatcher)", () => {
  test("external: public addresses only", () => {
    expect(allows("external", "example.com", "93.184.216.34")).toBe(true);
    expect(allows("external", "example.com", "2606:2800:220:1::1")).toBe(true);
    for (const a of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.64.0.1", "168.63.129.16", "0.0.0.0", "::1", "fe80::1", "fd00::1", "64:ff9b::a9fe:a9fe", "2002::1", "224.0.0.1", "255.255.255.255", "::ffff:127.0.0.1", "192.0.2.1"]) {
      expect({ a, allowed: allows("external", "h", a) }).toEqual({ a, allowed: false });
    }
  });

  test("loopback and private", () => {
    expect(allows("loopback", "localhost", "127.0.0.1")).toBe(true);
    expect(allows("loopback", "localhost", "127.8.9.10")).toBe(true);
    expect(allows("loopback", "localhost", "::1")).toBe(true);
    expect(allows("loopback", "h", "10.0.0.1")).toBe(false);
    expect(allows("private", "h", "10.0.0.1")).toBe(true);
    expect(allows("private", "h", "172.31.255.255")).toBe(true);
    expect(allows("private", "h", "172.32.0.1")).toBe(false);
    expect(allows("private", "h", "fd12::1")).toBe(true);
    expect(allows("private", "h", "100.100.100.200")).toBe(true);
    expect(allows("private", "h", "127.0.0.1")).toBe(false);
    expect(allows("private", "h", "8.8.8.8")).toBe(false);
  });

  test("CIDRs (IPv4 networks match IPv4-mapped addresses too), `*`, and several entries", () => {
    expect(allows("10.0.0.0/8", "h", "10.200.1.1")).toBe(true);
    expect(allows("10.0.0.0/8", "h", "11.0.0.1")).toBe(false);
    expect(allows("10.0.0.0/8", "h", "::ffff:10.0.0.1")).toBe(true);
    expect(allows("192.168.1.128/25", "h", "192.168.1.200")).toBe(true);
    expect(allows("192.168.1.128/25", "h", "192.168.1.100")).toBe(false);
    expect(allows("fd00::/8", "h", "fd00::5")).toBe(true);
    expect(allows("fd00::/8", "h", "fe00::5")).toBe(false);
    expect(allows("*", "h", "127.0.0.1")).toBe(true);
    expect(allows(" External , LOOPBACK ", "h", "127.0.0.1")).toBe(true);
    expect(allows("external, 10.0.0.0/8", "h", "10.0.0.1")).toBe(true);
    expect(allows("", "h", "8.8.8.8")).toBe(false);
  });

  test("host globs match the name whatever it resolves to, and IP globs the address", () => {
    expect(allows("*.example.com", "hooks.example.com", "10.0.0.1")).toBe(true);
    expect(allows("*.example.com", "example.com", "10.0.0.1")).toBe(false);
    expect(allows("*.example.com", "a.b.example.com", "10.0.0.1")).toBe(true);
    expect(allows("HOOKS.example.com", "hooks.EXAMPLE.com", "10.0.0.1")).toBe(true);
    expect(allows("ci-?.internal", "ci-1.internal", "10.0.0.1")).toBe(true);
    expect(allows("ci-?.internal", "ci-12.internal", "10.0.0.1")).toBe(false);
    expect(allows("ci-[0-4].internal", "ci-3.internal", "10.0.0.1")).toBe(true);
    expect(allows("ci-[^0-4].internal", "ci-3.internal", "10.0.0.1")).toBe(false);
    expect(allows("10.0.0.*", "whatever", "10.0.0.7")).toBe(true);
    expect(allows("10.0.0.*", "whatever", "10.0.1.7")).toBe(false);
  });

  test("by name alone (through a proxy): only patterns and IP literals can match", () => {
    const list = new HostMatchList("webhook.ALLOWED_HOST_LIST", "external, *.trusted.example");
    expect(list.matchHostName("hooks.trusted.example:8443")).toBe(true);
    expect(list.matchHostName("example.com")).toBe(false);
    expect(list.matchHostName("93.184.216.34:80")).toBe(true);
    expect(list.matchHostName("[::1]:80")).toBe(false);
  });
});

describe("outbound requests", () => {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => new Response(`host=${r.headers.get("host")}`, { headers: { "x-seen": "1" } }) });
  afterAll(() => server.stop(true));
  const policy = (list: string, answers: Record<string, string[]>): OutboundPolicy => ({
    allow: new HostMatchList("webhook.ALLOWED_HOST_LIST", list),
    usage: "webhook",
    timeoutMs: 2000,
    skipTlsVerify: false,
    resolve: async (h) => answers[h] ?? [],
  });

  test("the connection goes to the address that was checked, the name kept as Host (no second resolution)", async () => {
    // `pinned.invalid` exists only in this resolver: a client resolving again could not connect.
    const res = await outboundFetch(
      { url: `http://pinned.invalid:${server.port}/x`, method: "POST", headers: {}, body: "hi" },
      policy("loopback", { "pinned.invalid": ["127.0.0.1"] }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toBe(`host=pinned.invalid:${server.port}`);
    expect(res.headers["X-Seen"]).toBe("1");
  });

  test("a name resolving to a refused address is refused before connecting, with Gitea's message", async () => {
    const err = await outboundFetch(
      { url: `http://sneaky.invalid:${server.port}/`, method: "POST", headers: {}, body: "" },
      policy("external", { "sneaky.invalid": ["10.1.2.3", "127.0.0.1"] }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundRefused);
    expect((err as Error).message).toBe(
      `webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny 'sneaky.invalid(10.1.2.3:${server.port})'`,
    );
  });

  test("only the allowed addresses of a name are used", async () => {
    const res = await outboundFetch(
      { url: `http://mixed.invalid:${server.port}/`, method: "GET", headers: {} },
      policy("127.0.0.0/8", { "mixed.invalid": ["10.1.2.3", "127.0.0.1"] }),
    );
    expect(res.status).toBe(200);
  });

  test("a redirect to a refused address is refused too", async () => {
    const redirecting = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("", { status: 302, headers: { Location: "http://169.254.169.254/latest/meta-data/" } }) });
    try {
      const err = await outboundFetch(
        { url: `http://127.0.0.1:${redirecting.port}/`, method: "POST", headers: {}, body: "x" },
        policy("loopback", {}),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundRefused);
      expect((err as Error).message).toContain("deny '169.254.169.254(169.254.169.254:80)'");
    } finally {
      redirecting.stop(true);
    }
  });

  test("DELIVER_TIMEOUT bounds the whole request", async () => {
    // A receiver that never answers until the test is over: only the timeout can end the request.
    const { promise: never, resolve: endReceiver } = Promise.withResolvers<void>();
    const slow = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: async () => (await never, new Response("late")) });
    try {
      const err = await outboundFetch(
        { url: `http://127.0.0.1:${slow.port}/`, method: "POST", headers: {}, body: "x" },
        { ...policy("loopback", {}), timeoutMs: 300 },
      ).catch((e: unknown) => e);
      expect((err as Error).message).toContain("timeout after 300 ms");
    } finally {
      endReceiver();
      slow.stop(true);
    }
  });

  test("PROXY_URL / PROXY_HOSTS: matching hosts go through the proxy, checked by name (the proxy resolves it)", async () => {
    const seen: string[] = [];
    const proxy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (r) => {
        seen.push(`${r.method} ${r.url} ${r.headers.get("authorization")}`);
        return new Response("via proxy", { status: 201 });
      },
    });
    try {
      const viaProxy = (list: string, url: string) =>
        outboundFetch(
          { url, method: "POST", headers: { Authorization: "token p" }, body: "b" },
          { ...policy(list, {}), proxy: { url: `http://127.0.0.1:${proxy.port}`, hosts: [/^[^:]*\.example\.test(:\d+)?$/] } },
        );
      const res = await viaProxy("*.example.test", "http://hooks.example.test/p?q=1");
      expect([res.status, res.body]).toEqual([201, "via proxy"]);
      expect(seen).toEqual(["POST http://hooks.example.test/p?q=1 token p"]);
      const err = await viaProxy("external", "http://other.example.test/").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundRefused);
      expect((err as Error).message).toContain("deny 'other.example.test(via proxy)'");
      expect(seen).toHaveLength(1);
    } finally {
      proxy.stop(true);
    }
  });

  test("https to a pinned address: the certificate is checked against the name; SKIP_TLS_VERIFY accepts a self-signed one", async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const certDir = mkdtempSync(join(tmpdir(), "hearth-tls-"));
    const made = Bun.spawnSync(
      ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(certDir, "key.pem"), "-out", join(certDir, "cert.pem"),
        "-days", "1", "-subj", "/CN=hooks.test", "-addext", "subjectAltName=DNS:hooks.test"],
      { stderr: "pipe" },
    );
    expect(made.exitCode).toBe(0);
    const tls = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: readFileSync(join(certDir, "cert.pem"), "utf8"), key: readFileSync(join(certDir, "key.pem"), "utf8") },
      fetch: (r) => new Response(`host=${r.headers.get("host")}`),
    });
    try {
      const req = { url: `https://hooks.test:${tls.port}/`, method: "POST", headers: {}, body: "x" };
      const answers = { "hooks.test": ["127.0.0.1"] };
      const strict = await outboundFetch(req, policy("loopback", answers)).catch((e: unknown) => e);
      expect(strict).toBeInstanceOf(Error);
      expect(strict).not.toBeInstanceOf(OutboundRefused);
      expect((strict as Error).message).toMatch(/self.signed|certificate/i);
      const relaxed = await outboundFetch(req, { ...policy("loopback", answers), skipTlsVerify: true });
      expect([relaxed.status, relaxed.body]).toEqual([200, `host=hooks.test:${tls.port}`]);
    } finally {
      tls.stop(true);
      rmSync(certDir, { recursive: true, force: true });
    }
  });
});
