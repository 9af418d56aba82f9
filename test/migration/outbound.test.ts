import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HostMatchList } from "../../src/outbound/host-matcher.ts";
import { OutboundRefused, OutboundTooLarge, outboundFetch, type OutboundPolicy } from "../../src/outbound/request.ts";

/** What migrations ask of outbound/ beyond webhooks: a block list, bodies to files, and size limits. */

const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => (new URL(r.url).pathname === "/missing" ? new Response("nope", { status: 404 }) : new Response(bytes)) });
const dir = mkdtempSync(join(tmpdir(), "hearth-outbound-"));
afterAll(() => {
  server.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const policy = (block: string, answers: Record<string, string[]> = {}, maxResponseBytes?: number): OutboundPolicy => ({
  allow: new HostMatchList("migrations.ALLOWED_DOMAINS/ALLOW_LOCALNETWORKS", "external,private,loopback"),
  block: new HostMatchList("migrations.BLOCKED_DOMAINS", block),
  usage: "migration",
  timeoutMs: 5000,
  skipTlsVerify: false,
  maxResponseBytes,
  resolve: async (h) => answers[h] ?? [],
});

describe("outbound for migrations", () => {
  test("BLOCKED_DOMAINS refuses a host by name, whatever the allow list says", async () => {
    const err = await outboundFetch({ url: `http://src.invalid:${server.port}/`, method: "GET", headers: {} }, policy("*.invalid", { "src.invalid": ["127.0.0.1"] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundRefused);
  });

  test("BLOCKED_DOMAINS refuses a name when any address it resolves to is blocked", async () => {
    const err = await outboundFetch(
      { url: `http://two.invalid:${server.port}/`, method: "GET", headers: {} },
      policy("10.0.0.0/8", { "two.invalid": ["127.0.0.1", "10.1.2.3"] }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundRefused);
    const ok = await outboundFetch({ url: `http://one.invalid:${server.port}/`, method: "GET", headers: {} }, policy("10.0.0.0/8", { "one.invalid": ["127.0.0.1"] }));
    expect(ok.status).toBe(200);
  });

  test("a body goes to a file byte for byte", async () => {
    const file = join(dir, "asset.bin");
    const res = await outboundFetch({ url: `http://127.0.0.1:${server.port}/asset`, method: "GET", headers: {}, toFile: file }, policy("", {}, 1_000_000));
    expect(res.status).toBe(200);
    expect(res.fileBytes).toBe(bytes.length);
    expect(new Uint8Array(readFileSync(file))).toEqual(bytes);
  });

  test("a body to a file larger than the limit fails the request", async () => {
    const err = await outboundFetch(
      { url: `http://127.0.0.1:${server.port}/asset`, method: "GET", headers: {}, toFile: join(dir, "big.bin") },
      policy("", {}, 10_000),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundTooLarge);
  });

  test("an error answer is not written to the file; a body kept in memory says when it was cut", async () => {
    const res = await outboundFetch({ url: `http://127.0.0.1:${server.port}/missing`, method: "GET", headers: {}, toFile: join(dir, "missing.bin") }, policy(""));
    expect(res.status).toBe(404);
    expect(res.body).toBe("nope");
    expect(res.fileBytes).toBeUndefined();
    const cut = await outboundFetch({ url: `http://127.0.0.1:${server.port}/asset`, method: "GET", headers: {} }, policy("", {}, 100));
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(cut.body, "latin1")).toBeLessThanOrEqual(100 * 3);
  });
});
