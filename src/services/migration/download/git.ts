import type { Downloader, SourceOptions, SourceRepo } from "./source.ts";

/**
 * The `git` service (Gitea's PlainGitDownloader): any git address, git data only. The repository's
 * name and owner are the last two parts of the address's path.
 */
export function gitDownloader(opts: SourceOptions): Downloader {
  const none = async () => [];
  return {
    service: "git",
    async repo(): Promise<SourceRepo> {
      const parts = new URL(opts.cloneAddr).pathname.split("/").filter(Boolean);
      return {
        name: (parts.at(-1) ?? "").replace(/\.git$/, ""),
        owner: parts.at(-2) ?? "",
        description: "",
        isPrivate: false,
        defaultBranch: "",
        originalUrl: opts.cloneAddr,
        cloneUrl: opts.cloneAddr,
        cloneCredentials: opts.authToken
          ? { username: opts.authUsername || "oauth2", password: opts.authToken }
          : { username: opts.authUsername, password: opts.authPassword },
      };
    },
    topics: none,
    milestones: none,
    labels: none,
    releases: none,
    async downloadAsset() {
      throw new Error("a plain git source has no release assets");
    },
    issues: async () => ({ items: [], isEnd: true }),
    comments: none,
    pullRequests: async () => ({ items: [], isEnd: true }),
    reviews: none,
    pullHeadRef: (n) => `refs/pull/${n}/head`,
  };
}
