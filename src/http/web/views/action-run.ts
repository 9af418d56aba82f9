/** Pieces the Actions pages share: a run's ref and actor, its links, the jobs list. */
import type { ActionRunJobRow, ActionRunRow, UserRow } from "../../../db/schema/index.ts";
import type { Env } from "../../../services/env.ts";
import { duration } from "../../../services/actions/status.ts";
import { html, type Html } from "../../../lib/html.ts";
import { avatarImg } from "../layout.ts";
import { escapePath } from "./repo-header.ts";
import { actionStatusIcon, durationText } from "./action-status.ts";

/** `/{owner}/{repo}/actions/runs/{index}` below the repository's path. */
export const runHref = (at: string, run: Pick<ActionRunRow, "index">): string => `${at}/actions/runs/${run.index}`;

/**
 * Gitea's PrettyRef and RefLink: a branch or tag by its short name with its tree, a pull
 * request's head ref as `#N` with the pull request.
 */
export function refOf(at: string, ref: string): { label: string; href?: string } {
  const pull = /^refs\/pull\/(\d+)\/(?:head|merge)$/.exec(ref);
  if (pull) return { label: `#${pull[1]}`, href: `${at}/pulls/${pull[1]}` };
  if (ref.startsWith("refs/heads/")) {
    const name = ref.slice("refs/heads/".length);
    return { label: name, href: `${at}/src/branch/${escapePath(name)}` };
  }
  if (ref.startsWith("refs/tags/")) {
    const name = ref.slice("refs/tags/".length);
    return { label: name, href: `${at}/src/tag/${escapePath(name)}` };
  }
  return { label: ref };
}

/** The ref as a label; struck through when its branch is gone. */
export function refLabel(at: string, ref: string, deleted = false): Html {
  const r = refOf(at, ref);
  const inner = deleted ? html`<del>${r.label}</del><span class="sr-only"> (deleted)</span>` : html`${r.label}`;
  return r.href && !deleted ? html`<a class="ref-label" href="${r.href}">${inner}</a>` : html`<span class="ref-label">${inner}</span>`;
}

/** Who started a run: a link to the account, or the name alone for the Actions bot and the ghost. */
export function actorLink(env: Env, base: string, user: UserRow): Html {
  const face = avatarImg(env, user, 16);
  return user.id > 0 ? html`<a class="actor" href="${base}/${encodeURIComponent(user.name)}">${face}<span>${user.name}</span></a>` : html`<span class="actor">${face}<span>${user.name}</span></span>`;
}

/** Seconds a run took over all its attempts (Gitea's ActionRun.Duration). */
export const runSeconds = (run: ActionRunRow, now: number): number => run.previousDuration + duration(run.startedUnix, run.stoppedUnix, now);

/**
 * The run's jobs as a navigation list (the left column of Gitea's run view): state, name and
 * duration, the current job marked.
 */
export function jobsNav(at: string, run: ActionRunRow, jobs: readonly ActionRunJobRow[], current: number | undefined, now: number): Html {
  const items = jobs.map((j, i) => {
    const took = durationText(duration(j.startedUnix, j.stoppedUnix, now), j.startedUnix > 0);
    return html`<li><a href="${runHref(at, run)}/jobs/${i}"${i === current ? html` aria-current="page"` : ""}>${actionStatusIcon(j.status)}<span class="job-name">${j.name}</span>${
      took ? html`<span class="muted small job-took">${took}</span>` : ""
    }</a></li>`;
  });
  return html`<nav class="jobs-nav" aria-label="Jobs"><h2 class="jobs-title">Jobs</h2><ul>${items}</ul></nav>`;
}
