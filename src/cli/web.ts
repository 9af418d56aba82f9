import { mkdirSync } from "node:fs";
import type { Command } from "./command.ts";
import { configFlags, openRuntime } from "./runtime.ts";
import { createApp } from "../http/app.ts";
import { rememberClientIp } from "../http/client-ip.ts";
import { countUsers } from "../services/user/account.ts";
import { VERSION } from "../version.ts";

export const webCommand: Command = {
  name: "web",
  description: "Start the hearth web server",
  flags: [...configFlags, { name: "port", short: "p", type: "string", description: "listen port (overrides [server] HTTP_PORT)" }],
  async run(flags) {
    let portOverride: number | undefined;
    if (flags.port !== undefined) {
      const p = String(flags.port);
      if (!/^\d+$/.test(p) || Number(p) > 65535) throw new Error(`invalid --port ${JSON.stringify(p)}`);
      portOverride = Number(p);
    }
    const { env, close } = await openRuntime(flags, { portOverride, persistSecrets: true });
    const { settings, log } = env;
    mkdirSync(settings.server.appDataPath, { recursive: true });
    mkdirSync(settings.repository.root, { recursive: true });

    const app = createApp(env);
    const server = Bun.serve({
      fetch: (request, srv) => {
        rememberClientIp(request, srv.requestIP(request)?.address);
        return app.handle(request);
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

    if (settings.server.httpPort === 0 && !settings.server.rootUrlExplicit && server.port) {
      const scheme = settings.server.protocol === "https" ? "https" : "http";
      settings.server.rootUrl = `${scheme}://${settings.server.domain}:${server.port}/`;
    }
    log.info(`hearth ${VERSION.hearth} (Gitea API ${VERSION.api}) listening`, {
      url: settings.server.rootUrl,
      address: settings.server.protocol === "http+unix" ? settings.server.httpAddr : `${settings.server.httpAddr}:${server.port}`,
      config: settings.configFile,
      database: settings.database.path,
    });
    if (countUsers(env) === 0) {
      log.info(
        "no users yet: create the first administrator with\n" +
          `  hearth admin user create --admin --username NAME --email EMAIL --password PASSWORD --config ${settings.configFile}\n` +
          "  (from a checkout: npm exec -- bun src/main.ts admin user create ...)",
      );
    }

    await new Promise<void>((resolve) => {
      const stop = () => {
        log.info("shutting down");
        server.stop().then(() => resolve());
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    close();
    return 0;
  },
};
