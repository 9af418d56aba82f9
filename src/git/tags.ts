import { git, refuseNulMessage, runGit } from "./exec.ts";
import { isHexId, parseSignature, readObjects, splitObject, type GitSignature } from "./reflist.ts";
import { updateRefs } from "./refs-write.ts";

/** A tag as Gitea's git.Tag sees it. */
export interface TagInfo {
  /** Short name (`v1.0`, `release/2`). */
  name: string;
  /** The tag object for an annotated tag, the commit for a lightweight one. */
  id: string;
  /** `tag` (annotated) or the type of what a lightweight tag points at (`commit`). */
  type: string;
  /** What the tag points at: the tagged object of an annotated tag, else `id`. */
  object: string;
  /** The tagger; for a lightweight tag the commit's committer. Undefined when absent. */
  tagger: GitSignature | undefined;
  /** The tag message without its signature; for a lightweight tag the commit message. */
  message: string;
}

export interface TagObject {
  sha: string;
  /** The `object` header: what the tag points at. */
  object: string;
  objectType: string;
  /** The `tag` header (the name the tag was created with). */
  tag: string;
  tagger: GitSignature | undefined;
  /** The message as stored, signature removed. */
  message: string;
}

const FIELDS = ["%(refname)", "%(objecttype)", "%(objectname)", "%(object)", "%(creator)", "%(contents)", "%(contents:signature)"];
const FORMAT = FIELDS.map((f) => `${f}%00`).join("");

function stripSignature(contents: string, signature: string): string {
  return signature && contents.endsWith(signature) ? contents.slice(0, contents.length - signature.length) : contents;
}

/**
 * Tags in Gitea's order: `for-each-ref --sort=-*creatordate refs/tags` (annotated tags by the
 * date of what they point at, newest first; lightweight tags after them, by name). With `exact`,
 * only that one tag (short name).
 */
export async function listTags(gitDir: string, exact?: string): Promise<TagInfo[]> {
  const pattern = exact === undefined ? "refs/tags" : `refs/tags/${exact}`;
  const r = await runGit(["for-each-ref", `--format=${FORMAT}`, "--sort=-*creatordate", pattern], { gitDir });
  if (r.code !== 0) return [];
  const tokens = r.stdout.toString("utf8").split("\0");
  const n = FIELDS.length;
  const tags: TagInfo[] = [];
  for (let i = 0; i + n <= tokens.length; i += n) {
    const f = tokens.slice(i, i + n);
    f[0] = f[0]!.replace(/^\n/, "");
    const [refname, type, id, object, creator, contents, signature] = f as [string, string, string, string, string, string, string];
    if (!refname.startsWith("refs/tags/")) continue;
    const name = refname.slice("refs/tags/".length);
    if (exact !== undefined && name !== exact) continue;
    tags.push({
      name,
      id,
      type,
      object: type === "tag" && object ? object : id,
      tagger: parseSignature(creator),
      message: stripSignature(contents, signature),
    });
  }
  return tags;
}

/** An annotated tag object by id, or undefined when `sha` is not one. */
export async function readTagObject(gitDir: string, sha: string): Promise<TagObject | undefined> {
  if (!isHexId(sha)) return undefined;
  const [obj] = await readObjects(gitDir, [sha]);
  if (!obj || obj.type !== "tag") return undefined;
  const { headers, message } = splitObject(obj.content.toString("utf8"));
  const get = (k: string) => headers.find(([h]) => h === k)?.[1] ?? "";
  const sigAt = message.search(/-----BEGIN (?:PGP|SSH) SIGNATURE-----/);
  return {
    sha: obj.sha,
    object: get("object"),
    objectType: get("type"),
    tag: get("tag"),
    tagger: parseSignature(get("tagger")),
    message: sigAt > 0 ? message.slice(0, sigAt) : message,
  };
}

/** The short name of a tag ref pointing at `sha` (the first by name), or undefined. */
export async function tagNameBySha(gitDir: string, sha: string): Promise<string | undefined> {
  const r = await runGit(["for-each-ref", "--format=%(objectname) %(refname)", "refs/tags"], { gitDir });
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const sp = line.indexOf(" ");
    if (line.slice(0, sp) === sha) return line.slice(sp + 1).slice("refs/tags/".length);
  }
  return undefined;
}

export interface CreateTagInput {
  /** Short name, already validated. */
  name: string;
  /** The commit id to tag. */
  commit: string;
  /** Non-empty: an annotated tag with this message; empty: a lightweight tag. */
  message: string;
  tagger: { name: string; email: string; unix: number };
}

/**
 * Creates a tag that must not exist yet. An annotated tag is written with `git tag -a` (git's
 * message cleanup, the tagger from the environment), the name after `--`; a lightweight one is a
 * ref created with compare-and-swap against "absent". Throws RefUpdateError or GitError.
 */
export async function createTag(gitDir: string, input: CreateTagInput): Promise<void> {
  if (!isHexId(input.commit)) throw new Error("createTag needs a full commit id");
  if (!input.message) {
    await updateRefs(gitDir, [{ op: "create", ref: `refs/tags/${input.name}`, sha: input.commit }]);
    return;
  }
  refuseNulMessage(input.message);
  const who = input.tagger;
  // The message goes through stdin: as an argument, one over the kernel's 128 KiB cap per
  // argument could not be spawned at all.
  await git(["tag", "-a", "-F", "-", "--", input.name, input.commit], {
    gitDir,
    input: input.message,
    env: {
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
      GIT_COMMITTER_DATE: `@${who.unix} +0000`,
      GIT_AUTHOR_NAME: who.name,
      GIT_AUTHOR_EMAIL: who.email,
    },
  });
}
