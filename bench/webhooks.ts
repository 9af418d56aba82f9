/**
 * Webhook benchmark (see bench/RESULTS.md, "Webhooks"): hearth in-process (its HTTP app driven
 * through `app.handle`, the persistent queue delivering in the background, as `hearth web` does),
 * a receiver in a child process on 127.0.0.1 that answers 200 at once.
 *
 * 1. The cost of firing: `POST /repos/{o}/{r}/issues` on a repository without hooks and on one
 *    with 10 active hooks (each issue then records 10 hook tasks and queues 10 deliveries, sent
 *    while the next requests are answered), in alternating rounds; medians and their ratio.
 * 2. Delivery throughput: 200 events × 10 hooks = 2,000 deliveries, from the first event to the
 *    last recorded attempt, against a bare `fetch` client posting the same bodies to the same
 *    receiver with the same concurrency (8), in the same run; alternating rounds.
 *
 *   bun bench/webhooks.ts [--rounds 5] [--issues 50] [--events 200] [--no-write]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { buildSettings } from "../src/config/settings.ts";
import { parseIni } from "../src/config/ini-source.ts";
import { openDatabase } from "../src/db/client.ts";
import { createLogger } from "../src/lib/log.ts";
import { composeEnv } from "../src/compose.ts";
import { createApp } from "../src/http/app.ts";
import { createUser } from "../src/services/user/account.ts";
import { createToken } from "../src/services/user/tokens.ts";
import { getRepoByOwner } from "../src/models/repo.ts";
import { insertWebhook } from "../src/models/webhook.ts";
import { fireEvent } from "../src/services/webhook/enqueue.ts";
import { HookContentType, queueItems } from "../src/db/schema/index.ts";
import { insertQueueItem } from "../src/models/queue.ts";
import { writeTx } from "../src/db/client.ts";
import { eq } from "drizzle-orm";
import { benchArgs } from "./lib/args.ts";
import { RESULTS_PATH, writeResultsSection } from "./lib/results.ts";

const argv = process.argv.slice(2);
const opt = benchArgs(argv).integer;
const O = { rounds: opt("rounds", 5), issues: opt("issues", 50), events: opt("events", 200), write: !argv.includes("--no-write") };
const HOOKS = 10;
const CONCURRENCY = 8;

// ---- the receiver, in its own process so it does not share hearth's event loop

const receiverCode = `
let n = 0;
const s = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, async fetch(r) {
  if (r.method === "GET" && new URL(r.url).pathname === "/count") return new Response(String(n));
  await r.arrayBuffer(); n++; return new Response("ok");
} });
console.log(s.port);
`;
const receiver = Bun.spawn([process.execPath, "-e", receiverCode], { stdout: "pipe", stderr: "inherit" });
const dir = mkdtempSync(join(tmpdir(), "hearth-bench-webhooks-"));
const cleanup = () => {
  receiver.kill();
  rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

try {
  const reader = receiver.stdout.getReader();
  let first = "";
  while (!first.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("receiver did not start");
    first += new TextDecoder().decode(value);
  }
  const receiverUrl = `http://127.0.0.1:${first.trim()}`;

  // ---- hearth in-process

  const { settings } = buildSettings(
    parseIni(
      `[server]\nROOT_URL = http://hearth.bench/\nAPP_DATA_PATH = ${join(dir, "data")}\n[security]\nSECRET_KEY = bench\nINTERNAL_TOKEN = bench\n[log]\nLEVEL = none\n[webhook]\nALLOWED_HOST_LIST = loopback\n`,
    ),
    { workPath: dir, customPath: join(dir, "custom"), configFile: join(dir, "custom/conf/app.ini") },
  );
  const database = openDatabase(settings.database.path);
  const env = composeEnv(settings, database.db, createLogger("none"));
  const app = createApp(env);
  env.queue.start();
  const user = await createUser(env, { username: "bench", email: "bench@example.com", password: "password123", isAdmin: false, mustChangePassword: false });
  const token = createToken(env, user, "bench", ["all"]).token;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.handle(
      new Request(`http://hearth.bench${path}`, {
        method,
        headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  await call("POST", "/api/v1/user/repos", { name: "plain" });
  await call("POST", "/api/v1/user/repos", { name: "hooked" });
  const hooked = getRepoByOwner(env.db, user.id, "hooked")!;
  const now = Math.floor(Date.now() / 1000);
  for (let i = 0; i < HOOKS; i++) {
    insertWebhook(env.db, {
      repoId: hooked.id,
      url: `${receiverUrl}/hook/${i}`,
      contentType: HookContentType.Json,
      secret: "bench-secret",
      events: JSON.stringify({ push_only: false, send_everything: true, choose_events: false, branch_filter: "", events: {} }),
      type: "gitea",
      createdUnix: now,
      updatedUnix: now,
    });
  }
  const delivered = async () => Number(await (await fetch(`${receiverUrl}/count`)).text());

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

  // ---- 1. the request that fires the event

  /** With `settle`, the deliveries of each request are done (untimed) before the next request starts. */
  async function createIssues(repo: string, n: number, settle = false): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await call("POST", `/api/v1/repos/bench/${repo}/issues`, { title: `issue ${i}`, body: "a benchmark issue" });
      times.push(performance.now() - t0);
      if (settle) await env.queue.idle();
    }
    return times;
  }
  await createIssues("plain", 10);
  await createIssues("hooked", 10);
  await env.queue.idle();
  const plainAll: number[] = [];
  const hookedAll: number[] = [];
  const settledAll: number[] = [];
  const roundRatios: string[] = [];
  for (let r = 0; r < O.rounds; r++) {
    const before = await delivered();
    const p = await createIssues("plain", O.issues);
    const h = await createIssues("hooked", O.issues);
    await env.queue.idle();
    const hs = await createIssues("hooked", O.issues, true);
    const got = (await delivered()) - before;
    if (got !== 2 * O.issues * HOOKS) throw new Error(`round ${r + 1}: ${got} deliveries, expected ${2 * O.issues * HOOKS}`);
    plainAll.push(...p);
    hookedAll.push(...h);
    settledAll.push(...hs);
    roundRatios.push(`${median(h).toFixed(2)} / ${median(hs).toFixed(2)} / ${median(p).toFixed(2)} ms`);
  }

  // ---- 2. deliveries per second, against a bare client

  const sampleBody = JSON.stringify({ action: "opened", number: 1, issue: { id: 1, title: "x".repeat(200) }, repository: { id: hooked.id, full_name: "bench/hooked" } }, null, 2);
  const fireTimes: number[] = [];
  async function queueRun(): Promise<number> {
    const before = await delivered();
    const t0 = performance.now();
    const owner = user;
    for (let i = 0; i < O.events; i++) {
      const payload = { ...JSON.parse(sampleBody), number: i };
      const f0 = performance.now();
      fireEvent(env, { event: "issues", payload, repo: hooked, owner });
      fireTimes.push(performance.now() - f0);
    }
    await env.queue.idle();
    const seconds = (performance.now() - t0) / 1000;
    const got = (await delivered()) - before;
    if (got !== O.events * HOOKS) throw new Error(`${got} deliveries, expected ${O.events * HOOKS}`);
    return got / seconds;
  }
  async function bareRun(): Promise<number> {
    const total = O.events * HOOKS;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) {
          const i = next++;
          const res = await fetch(`${receiverUrl}/hook/${i % HOOKS}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: sampleBody });
          await res.arrayBuffer();
        }
      }),
    );
    return total / ((performance.now() - t0) / 1000);
  }
  await bareRun();
  const queueRates: number[] = [];
  const bareRates: number[] = [];
  for (let r = 0; r < O.rounds; r++) {
    queueRates.push(await queueRun());
    bareRates.push(await bareRun());
  }

  // ---- what one commit costs here (WAL, synchronous=NORMAL since issue 14): the floor of recording an event

  const commitTimes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    writeTx(env.db, (tx) => {
      const row = insertQueueItem(tx, "bench-probe", "{}", 0, Date.now());
      tx.delete(queueItems).where(eq(queueItems.id, row.id)).run();
    });
    commitTimes.push(performance.now() - t0);
  }

  await env.queue.stop();
  await env.housekeeper.stop();
  database.close();

  // ---- report

  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const rate = (x: number) => Math.round(x).toLocaleString("en-US");
  const mp = median(plainAll);
  const mh = median(hookedAll);
  const ms_ = median(settledAll);
  const qr = median(queueRates);
  const br = median(bareRates);
  const section = `<!-- webhooks:begin -->
## Webhooks (\`bench/webhooks.ts\`)

- **Date:** ${new Date().toISOString()}
- **Machine:** ${availableParallelism()} CPUs, ${cpus()[0]?.model ?? "unknown"}; Bun ${Bun.version}
- **Command:** \`bun bench/webhooks.ts${argv.filter((a) => a !== "--no-write").length ? " " + argv.filter((a) => a !== "--no-write").join(" ") : ""}\` (${O.rounds} rounds)
- hearth in-process (\`app.handle\`, no socket for the API), the work queue delivering in the background with
  its default concurrency (${CONCURRENCY}); the receiver is a separate \`Bun.serve\` process on 127.0.0.1 answering 200.

**The request that fires the event:** \`POST /api/v1/repos/bench/{repo}/issues\`, ${O.issues} sequential requests per
repository per round, alternating; with ${HOOKS} hooks each request records ${HOOKS} hook tasks and queues ${HOOKS}
deliveries, which are sent while the following requests are answered.

| Repository | p50 | p90 | p99 |
|---|---:|---:|---:|
| no hooks | ${ms(mp)} | ${ms(pct(plainAll, 90))} | ${ms(pct(plainAll, 99))} |
| ${HOOKS} hooks, back to back (deliveries of earlier requests running meanwhile) | ${ms(mh)} | ${ms(pct(hookedAll, 90))} | ${ms(pct(hookedAll, 99))} |
| ${HOOKS} hooks, each request's deliveries done before the next request | ${ms(ms_)} | ${ms(pct(settledAll, 90))} | ${ms(pct(settledAll, 99))} |
| **back to back / no hooks** | **${(mh / mp).toFixed(2)}×** (+${ms(mh - mp)}) | ${(pct(hookedAll, 90) / pct(plainAll, 90)).toFixed(2)}× | ${(pct(hookedAll, 99) / pct(plainAll, 99)).toFixed(2)}× |
| **deliveries done / no hooks** | **${(ms_ / mp).toFixed(2)}×** (+${ms(ms_ - mp)}) | ${(pct(settledAll, 90) / pct(plainAll, 90)).toFixed(2)}× | ${(pct(settledAll, 99) / pct(plainAll, 99)).toFixed(2)}× |

Per round, p50 back to back / deliveries done / no hooks: ${roundRatios.join("; ")}.
The first hooked row is what a busy server sees: the deliveries share its one JavaScript thread with the
requests; the second is the request's own cost (building the payload, recording ${HOOKS} hook tasks and queue items).
Without hooks no payload is built at all (the notifier asks first whether any hook wants the event); with
hooks the request builds Gitea's payload (issue, repository, sender) and calls \`fireEvent\`, which records
the ${HOOKS} hook tasks and their queue items in one transaction of its own: that call alone takes
${ms(median(fireTimes))} (p50; p90 ${ms(pct(fireTimes, 90))}; measured during the throughput runs below), of which one
commit (a write transaction, WAL with \`synchronous=NORMAL\`) is ${ms(median(commitTimes))} (median of 50) on this machine.

**Delivery throughput:** ${O.events} events × ${HOOKS} hooks = ${(O.events * HOOKS).toLocaleString("en-US")} deliveries, from the first
event to the last recorded attempt (each attempt: load the task and hook, format, sign, allow-list check, POST; then
the attempt, the task, the hook's status and the queue item's removal in one transaction shared by the attempts that
finish together), against a bare
\`fetch\` client POSTing the same body to the same receiver with the same concurrency (${CONCURRENCY}).

| Sender | Deliveries/s (median) | Rounds |
|---|---:|---|
| hearth's queue | ${rate(qr)} | ${queueRates.map(rate).join(", ")} |
| bare \`fetch\`, no queue | ${rate(br)} | ${bareRates.map(rate).join(", ")} |
| **hearth / bare** | **${((qr / br) * 100).toFixed(1)}%** | |
<!-- webhooks:end -->
`;
  console.log(section);
  if (O.write) {
    writeResultsSection("webhooks", section);
    console.log(`written to ${RESULTS_PATH}`);
  }
} finally {
  cleanup();
}
