/**
 * A hook's type settings (the `meta` column) from the API's `config` map, and back.
 *
 * Gitea's API (routers/api/v1/utils/hook.go) knows one type's settings: a slack hook needs
 * `channel` (Slack's channel naming, `#` allowed) and keeps `username`, `icon_url` and `color`;
 * every other type is created with no meta. Gitea's web forms give discord, telegram, matrix and
 * packagist settings too, and Gitea then fails every delivery of such a hook made through the API
 * (its meta does not parse). hearth takes those settings from `config` under the web forms' JSON
 * names when they are given, so an API-made hook works, and its formatters read a missing meta as
 * no settings.
 */
import { isValidSlackChannel } from "./slack.ts";
import { metaString, parseMeta } from "./convert.ts";

export type HookMetaResult = { meta: string } | { error: string; status: 400 | 422 };

/** Go's json.Marshal: compact, with `<`, `>`, `&` escaped. */
const goCompactJSON = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The settings each type keeps, in Gitea's struct order (SlackMeta, DiscordMeta, ...). */
const META_KEYS: Record<string, readonly string[]> = {
  slack: ["channel", "username", "icon_url", "color"],
  discord: ["username", "icon_url"],
  telegram: ["bot_token", "chat_id", "thread_id"],
  matrix: ["homeserver_url", "room_id", "message_type"],
  packagist: ["username", "api_token", "package_url"],
};

/** Matrix's message type: 1 (m.notice, the web form's default) or 2 (m.text), also by name. */
function matrixMessageType(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return 1;
  const named: Record<string, number> = { "1": 1, "2": 2, "m.notice": 1, "m.text": 2 };
  return named[value];
}

function build(type: string, config: Record<string, string>): HookMetaResult {
  if (type === "slack") {
    // Gitea stores the trimmed channel, and username, icon and colour as given.
    const channel = (config["channel"] ?? "").trim();
    return { meta: goCompactJSON({ channel, username: config["username"] ?? "", icon_url: config["icon_url"] ?? "", color: config["color"] ?? "" }) };
  }
  if (type === "matrix") {
    const messageType = matrixMessageType(config["message_type"]);
    if (messageType === undefined) return { error: "Invalid config option: message_type", status: 422 };
    return { meta: goCompactJSON({ homeserver_url: config["homeserver_url"] ?? "", room_id: config["room_id"] ?? "", message_type: messageType }) };
  }
  const keys = META_KEYS[type] ?? [];
  return { meta: goCompactJSON(Object.fromEntries(keys.map((k) => [k, config[k] ?? ""]))) };
}

/**
 * The meta to store for a hook of `type` created with `config`, or the refusal Gitea answers.
 * With `current` (an edit), settings change only when the config names one of the type's keys —
 * for slack only when it names `channel`, which Gitea then takes as given — and are otherwise
 * kept.
 */
export function validateHookMeta(type: string, config: Record<string, string>, current?: string): HookMetaResult {
  const keys = META_KEYS[type];
  if (!keys) return { meta: current ?? "" };
  if (current !== undefined) {
    if (type === "slack") {
      if (!("channel" in config)) return { meta: current };
      const slack = { channel: config["channel"] ?? "", username: config["username"] ?? "", icon_url: config["icon_url"] ?? "", color: config["color"] ?? "" };
      return { meta: goCompactJSON(slack) };
    }
    if (!keys.some((k) => k in config)) return { meta: current };
    // Keys the edit leaves out keep their stored values.
    const stored = parseMeta(current);
    const merged: Record<string, string> = {};
    for (const k of keys) merged[k] = config[k] ?? (k === "message_type" ? String(stored[k] ?? "") : metaString(stored, k));
    return build(type, merged);
  }
  if (type === "slack") {
    if (!("channel" in config)) return { error: "Missing config option: channel", status: 422 };
    if (!isValidSlackChannel((config["channel"] ?? "").trim())) return { error: "Invalid slack channel name", status: 400 };
    return build(type, config);
  }
  // Types whose settings Gitea's API ignores get meta only when the config gives some.
  return keys.some((k) => k in config) ? build(type, config) : { meta: "" };
}

/** The type settings Gitea's ToHook adds to a hook's `config` in API answers (slack's only). */
export function hookConfigFromMeta(type: string, meta: string): Record<string, string> {
  if (type !== "slack") return {};
  const m = parseMeta(meta);
  return { channel: metaString(m, "channel"), username: metaString(m, "username"), icon_url: metaString(m, "icon_url"), color: metaString(m, "color") };
}
