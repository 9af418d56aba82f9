import { ConfigError, type ConfigReader } from "./reader.ts";
import { DurationError, parseGoDuration } from "./go-duration.ts";

/** `[actions]`: Gitea's keys (modules/setting/actions.go) that hearth honours. Durations in seconds. */
export interface ActionsSettings {
  /** Off: no workflow runs, and the runner protocol and Actions pages are not there. */
  enabled: boolean;
  /** Where `uses: actions/checkout@v4` without a host is fetched from (a runner setting Gitea hands out). */
  defaultActionsUrl: string;
  /** Days an artifact is kept unless its upload asks for fewer. */
  artifactRetentionDays: number;
  /** Days a finished task's log is kept. */
  logRetentionDays: number;
  /** A running task not heard from for this long is failed. */
  zombieTaskTimeout: number;
  /** A task running this long is failed. */
  endlessTaskTimeout: number;
  /** A job waiting this long without a runner is cancelled. */
  abandonedJobTimeout: number;
  /** A commit message or pull request title holding one of these starts no run. */
  skipWorkflowStrings: string[];
}

function seconds(r: ConfigReader, key: string, fallback: string): number {
  const raw = r.string("actions", key, fallback);
  try {
    const ns = parseGoDuration(raw);
    if (ns <= 0) throw new ConfigError("actions", key, raw, "must be longer than 0");
    return Math.ceil(ns / 1e9);
  } catch (err) {
    if (err instanceof DurationError) throw new ConfigError("actions", key, raw, "expected a duration such as 10m or 3h");
    throw err;
  }
}

export function readActions(r: ConfigReader): ActionsSettings {
  const url = r.string("actions", "DEFAULT_ACTIONS_URL", "github").trim();
  if (url !== "github" && url !== "self") throw new ConfigError("actions", "DEFAULT_ACTIONS_URL", url, "expected github or self");
  return {
    enabled: r.bool("actions", "ENABLED", true),
    defaultActionsUrl: url,
    artifactRetentionDays: r.int("actions", "ARTIFACT_RETENTION_DAYS", 90, { min: 1 }),
    logRetentionDays: r.int("actions", "LOG_RETENTION_DAYS", 365, { min: 1 }),
    zombieTaskTimeout: seconds(r, "ZOMBIE_TASK_TIMEOUT", "10m"),
    endlessTaskTimeout: seconds(r, "ENDLESS_TASK_TIMEOUT", "3h"),
    abandonedJobTimeout: seconds(r, "ABANDONED_JOB_TIMEOUT", "24h"),
    skipWorkflowStrings: r
      .string("actions", "SKIP_WORKFLOW_STRINGS", "[skip ci],[ci skip],[no ci],[skip actions],[actions skip]")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  };
}
