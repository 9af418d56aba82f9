import type { Env } from "../../env.ts";
import { gitDownloader } from "./git.ts";
import type { Downloader, ServiceName, SourceOptions } from "./source.ts";

/**
 * The downloader of each service Gitea's migrations speak. The API clients are loaded when a
 * migration asks for one: a server that never migrates never loads them.
 */
export async function openDownloader(env: Env, service: ServiceName, opts: SourceOptions): Promise<Downloader> {
  switch (service) {
    case "git":
      return gitDownloader(opts);
    case "github":
      return (await import("./github.ts")).githubDownloader(env, opts);
    case "gitea":
      return (await import("./gitea.ts")).giteaDownloader(env, opts);
    case "gogs":
      return (await import("./gogs.ts")).gogsDownloader(env, opts);
    case "gitlab":
      return (await import("./gitlab.ts")).gitlabDownloader(env, opts);
  }
}
