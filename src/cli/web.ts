import { mkdirSync } from "node:fs";
import { UsageError, type Command } from "./command.ts";
import { configFlags, openRuntime } from "./runtime.ts";
import { countUsers } from "../services/user/lookup.ts";
import { clearMigrationLeftovers } from "../services/migration/leftovers.ts";
import { VERSION } from "../version.ts";
import { normalizeRootUrl } from "../config/settings.ts";
import { sqliteOf } from "../db/client.ts";
import { enableGroupCommit } from "../db/group-commit.ts";

/** Requests in one second that turn the JIT to its normal policy (http/jit-on-load.ts). */
const JIT_LOAD_PER_SECOND = 50;

/** How this very program is invoked, for the first-start hint: the executable, or `npm run hearth --` in a checkout. */
function selfCommand(): string {
  const compiled = !process.argv[1] || process.argv[1].startsWith("/$bunfs/");
  return compiled ? process.execPath : "npm run hearth --";
}

export const webCommand: Command = {
  name: "web",
  description: "Start the hearth web server",
  flags: [...configFlags, { name: "port", short: "p", type: "string", description: "listen port (overrides [server] HTTP_PORT)" }],
  async run(flags) {
    let portOverride: number | undefined;
    if (flags.port !== undefined) {
      const p = String(flags.port);
      if (!/^\d+$/.test(p) || Number(p) > 65535) {
        throw new UsageError(`invalid --port ${JSON.stringify(p)}: expected a port number from 0 to 65535`);
      }
      portOverride = Number(p);
    }
    const { env, close } = await openRuntime(flags, { portOverride, persistSecrets: true });
    const { settings, log } = env;
    mkdirSync(settings.server.appDataPath, { recursive: true });
    mkdirSync(settings.repository.root, { recursive: true });
    // A migration cut short by the last stop does not resume (its request is gone): its download and
    // its half-made repository go before anyone can see them.
    await clearMigrationLeftovers(env);

    // Loaded here, not at the top: the HTTP layer is most of the start-up cost, and the admin and
    // generate commands (which share this module graph through main.ts) never need it.
    const [{ createApp }, { rememberClientIp }, { answer }, { requestPulse }, { keepHeapSmall }, { jitOnLoad }] = await Promise.all([
      import("../http/app.ts"),
      import("../http/client-ip.ts"),
      import("../http/answer.ts"),
      import("../http/request-pulse.ts"),
      import("../http/heap-keeper.ts"),
      import("../http/jit-on-load.ts"),
    ]);
    const app = createApp(env);
    // Requests in flight together share their commits; each answer waits for its group's.
    enableGroupCommit(sqliteOf(env.db));
    const pulse = requestPulse(1000, [keepHeapSmall, jitOnLoad(JIT_LOAD_PER_SECOND)]);
    // One line per request: at info in dev mode, at debug in production.
    const requestLogLevel = settings.runMode === "dev" ? "info" : "debug";
    const server = Bun.serve({
      fetch: async (request, srv) => {
        pulse.touch();
        const address = srv.requestIP(request)?.address;
        rememberClientIp(request, address);
        if (!log.enabled(requestLogLevel)) return answer(app, env, request);
        const started = performance.now();
        const response = await answer(app, env, request);
        // Path only: the query may hold a token (`?token=`), which must never reach a log.
        log.log(requestLogLevel, "request", {
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ip: address ?? "",
        });
        return response;
      },
      ...(settings.server.protocol === "http+unix"
        ? { unix: settings.server.httpAddr }
        : { hostname: settings.server.httpAddr, port: settings.server.httpPort }),
      ...(settings.server.protocol === "https"
        ? { tls: { cert: Bun.file(settings.server.certFile), key: Bun.file(settings.server.keyFile) } }
        : {}),
      // Git pushes are large and slow to index; API bodies are capped per route.
      maxRequestBodySize: 8 * 1024 * 1024 * 1024,
      idleTimeout: 0,
    } as Parameters<typeof Bun.serve>[0]);

    if (settings.server.httpPort === 0 && server.port) {
      // Listening on a port the system chose: the derived URLs learn it now.
      const scheme = settings.server.protocol === "https" ? "https" : "http";
      if (!settings.server.rootUrlExplicit) {
        settings.server.rootUrl = normalizeRootUrl(`${scheme}://${settings.server.domain}:${server.port}/`);
      }
      if (!settings.server.localRootUrlExplicit) {
        const u = new URL(settings.server.localRootUrl);
        u.port = String(server.port);
        settings.server.localRootUrl = normalizeRootUrl(u.href);
      }
    }
    log.info(`hearth ${VERSION.hearth} (Gitea API ${VERSION.api}) listening`, {
      url: settings.server.rootUrl,
      address: settings.server.protocol === "http+unix" ? settings.server.httpAddr : `${settings.server.httpAddr}:${server.port}`,
      config: settings.configFile,
      database: settings.database.path,
    });
    // Background work left from before (webhook deliveries and mail of a previous run) resumes now.
    env.queue.start();
    if (countUsers(env) === 0) {
      log.info(
        `no users yet: create the first administrator with \`${selfCommand()} admin user create --admin --username NAME --email EMAIL --password PASSWORD --config ${settings.configFile}\``,
      );
    }

    // Gitea's git gc cron: once a day every repository is repacked with a reachability bitmap.
    const daily = setInterval(() => {
      import("../services/repo/maintenance.ts")
        .then((m) => m.repackAll(env))
        .catch((err) => log.warn("daily repack failed", { error: (err as Error).message }));
    }, 24 * 60 * 60 * 1000);
    daily.unref();

    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) {
          // A second signal: stop waiting for in-flight requests.
          log.warn(`${signal} again: closing open connections`);
          void server.stop(true);
          return;
        }
        stopping = true;
        log.info("shutting down", { signal });
        // Finish in-flight requests, but not for ever (systemd's own stop timeout is 90s).
        const force = setTimeout(() => void server.stop(true), 30_000);
        server.stop().then(() => {
          clearTimeout(force);
          resolve();
        });
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    clearInterval(daily);
    pulse.stop();
    // Deliveries under way finish (DELIVER_TIMEOUT bounds webhooks; a send to a hung mail server is
    // abandoned after closeMail's wait); the rest, mail included, wait in the database for the next start.
    const stopping = env.queue.stop();
    await (await import("../services/mail/outbox.ts")).closeMail(env);
    await stopping;
    await env.housekeeper.stop();
    close();
    return 0;
  },
};
