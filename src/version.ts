import pkg from "../package.json" with { type: "json" };

/** The Gitea API level hearth implements; clients (Gitea's Go SDK) gate features on it. */
const GITEA_API_LEVEL = "1.25.0";

export const VERSION = {
  hearth: pkg.version,
  /** Semver with our version as build metadata, e.g. `1.25.0+hearth.0.1.0`. */
  api: `${GITEA_API_LEVEL}+hearth.${pkg.version}`,
};
