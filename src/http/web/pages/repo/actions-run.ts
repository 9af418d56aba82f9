/**
 * One workflow run (Gitea's actions.View, templates/repo/actions/view.tmpl, whose Vue component
 * hearth renders on the server): the run with its jobs, one job with its steps and their log
 * rows, a job's raw log, the run's artifacts (listed, downloaded as zips, deleted), and the
 * cancel and re-run buttons for those who may write Actions.
 * `{run}` is the run's number in the repository (or `latest`), `{job}` the job's place in the run.
 * A run that is still going refreshes itself every few seconds (a meta refresh: no scripts).
 */
import { html, type Html } from "../../../../lib/html.ts";
import { Invalid, NotFound } from "../../../../lib/errors.ts";
import { contentDisposition } from "../../../../lib/content-disposition.ts";
import { nowUnix } from "../../../../lib/time.ts";
import type { ActionRunJobRow } from "../../../../db/schema/index.ts";
import { duration, isDone } from "../../../../services/actions/status.ts";
import { ActionStatus, jobLogText, jobOfRun, jobStepsForWeb, requireActionsPages, runForWeb, type RunView, type StepLog } from "../../../../services/actions/web-views.ts";
import { cancelRunByIndex, rerunByIndex } from "../../../../services/actions/web-actions.ts";
import { deleteRunArtifacts, runArtifactDownload, runArtifactsForWeb } from "../../../../services/actions/web-artifacts.ts";
import { fileSize } from "../../../../lib/file-size.ts";
import { userContentHeaders } from "../../../user-content.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { page, type PageContext } from "../../page.ts";
import { actionStatusBadge, actionStatusIcon, durationText, isLive, statusWords } from "../../views/action-status.ts";
import { actorLink, jobsNav, refLabel, runHref, runSeconds } from "../../views/action-run.ts";
import { ansiToHtml, groupMarker } from "../../views/action-log.ts";
import { shortSha } from "../../views/commit-list.ts";
import { postForm } from "../../views/form.ts";
import { repoHeader, repoPath } from "../../views/repo-header.ts";
import { jobNeeds } from "../../../../services/actions/job-fields.ts";
import { timeAgo } from "../../views/time.ts";

const readActions = { scope: "public", signIn: false, repo: { read: "actions" } } as const;
const writeActions = { scope: "public", signIn: false, repo: { read: "actions", write: "actions" } } as const;

/**
 * Log rows a job's page shows: 5,000 of a step, about 20,000 in all, 200 of a step met after that;
 * a longer step shows its last rows (a failure is at the end) and links the raw log.
 */
const LOG_BUDGET = { perStep: 5000, total: 20_000, floor: 200 };
/** Seconds between refreshes of a page whose run is still going. */
const REFRESH_SECONDS = 5;

/** `{run}`: a run number, or `latest`. */
function runParam(ctx: PageContext): number | "latest" {
  const v = ctx.params.run ?? "";
  if (v === "latest") return "latest";
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1) throw new NotFound();
  return Number(v);
}

/** `{job}`: a job's place in its run, from 0. */
function jobParam(ctx: PageContext): number {
  const v = ctx.params.job ?? "";
  if (!/^\d{1,6}$/.test(v)) throw new NotFound();
  return Number(v);
}

/** The run's heading: state, title, what started it and the buttons the visitor may press. */
function runHead(ctx: PageContext & { repo: RepoContext }, view: RunView, now: number): Html {
  const { env, base, repo: rc } = ctx;
  const { run, actor } = view;
  const at = repoPath(base, rc);
  const href = runHref(at, run);
  const canWrite = rc.perm.canWrite("actions");
  const buttons: Html[] = [];
  if (canWrite && !isDone(run.status)) buttons.push(postForm(ctx.state, `${href}/cancel`, html`<button type="submit" class="danger">Cancel</button>`, html` class="inline"`));
  if (canWrite && isDone(run.status)) buttons.push(postForm(ctx.state, `${href}/rerun`, html`<button type="submit">Re-run all jobs</button>`, html` class="inline"`));
  const took = durationText(runSeconds(run, now), run.startedUnix > 0 || run.previousDuration > 0);
  const trigger = run.scheduleId
    ? html`Scheduled`
    : html`Commit <a class="mono" href="${at}/commit/${run.commitSha}">${shortSha(run.commitSha)}</a> pushed by ${actorLink(env, base, actor)}`;
  return html`<div class="run-head">
<h2 class="run-heading">${actionStatusIcon(run.status)}<span>${run.title || "(no title)"}</span></h2>
${buttons.length ? html`<div class="run-buttons">${buttons}</div>` : ""}
</div>
<p class="run-summary"><a href="${at}/actions?workflow=${encodeURIComponent(run.workflowId)}"><strong>${run.workflowId}</strong></a> #${run.index}: ${trigger} ${refLabel(at, run.ref, view.branchDeleted)}</p>
<dl class="run-facts">
<div><dt>Status</dt><dd>${actionStatusBadge(run.status)}</dd></div>
<div><dt>Triggered via</dt><dd><code>${run.triggerEvent}</code></dd></div>
<div><dt>Started</dt><dd>${timeAgo(run.createdUnix, now)}</dd></div>
${took ? html`<div><dt>Duration</dt><dd>${took}</dd></div>` : ""}
</dl>
${liveNote(ctx, view)}`;
}

/**
 * Whether the page reloads itself: only while the run is going and only when the visitor asked
 * (`?refresh=1`), since a page that reloads on its own moves a reader and a screen reader away
 * from where they were (WCAG 2.2.1); scripts, which could update it in place, are off.
 */
function watching(ctx: PageContext, view: RunView): boolean {
  return isLive(view.run.status) && ctx.query.get("refresh") === "1";
}

/** While the run is going: reload now, or keep reloading (and stop again). */
function liveNote(ctx: PageContext, view: RunView): Html {
  if (!isLive(view.run.status)) return html``;
  const here = ctx.url.pathname;
  return watching(ctx, view)
    ? html`<p class="run-live" role="status">This run is still going; the page reloads every ${REFRESH_SECONDS} seconds. <a href="${here}">Stop reloading</a></p>`
    : html`<p class="run-live">This run is still going. <a href="${here}">Reload</a> · <a href="${here}?refresh=1">Reload every ${REFRESH_SECONDS} seconds</a></p>`;
}

function pageOf(ctx: PageContext & { repo: RepoContext }, view: RunView, title: string, body: Html): Response {
  const { base, repo: rc } = ctx;
  return ctx.render({
    title: `${title} · Actions · ${rc.owner.name}/${rc.repo.name}`,
    head: watching(ctx, view) ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : undefined,
    body: html`${repoHeader(base, rc, "actions")}${body}`,
  });
}

/** A job's row on the run page: state, name, needs, duration, its re-run button. */
function jobRow(ctx: PageContext & { repo: RepoContext }, view: RunView, job: ActionRunJobRow, i: number, now: number): Html {
  const href = `${runHref(repoPath(ctx.base, ctx.repo), view.run)}/jobs/${i}`;
  const took = durationText(duration(job.startedUnix, job.stoppedUnix, now), job.startedUnix > 0);
  const needs = jobNeeds(job);
  const rerun =
    ctx.repo.perm.canWrite("actions") && isDone(job.status)
      ? postForm(ctx.state, `${href}/rerun`, html`<button type="submit" class="small-button">Re-run<span class="sr-only"> ${job.name}</span></button>`, html` class="inline"`)
      : "";
  return html`<tr><td class="job-state">${actionStatusIcon(job.status)}</td><td class="name"><a href="${href}">${job.name}</a>${
    needs.length ? html`<span class="muted small job-needs">needs ${needs.join(", ")}</span>` : ""
  }</td><td>${statusWords(job.status)}</td><td class="duration">${took}</td><td class="job-actions">${rerun}</td></tr>`;
}

/** `/actions/runs/{run}`: the run and its jobs. */
export const viewRun = page({
  access: readActions,
  handler(ctx) {
    const { env, repo: rc } = ctx;
    requireActionsPages(env, rc);
    const view = runForWeb(env, rc, runParam(ctx));
    const now = nowUnix();
    const rows = view.jobs.map((j, i) => jobRow(ctx, view, j, i, now));
    return pageOf(
      ctx,
      view,
      view.run.title,
      html`${runHead(ctx, view, now)}
<div class="box"><table class="list run-jobs"><caption class="sr-only">Jobs</caption>
<thead><tr><th scope="col"><span class="sr-only">State</span></th><th scope="col">Job</th><th scope="col">Status</th><th scope="col" class="duration">Duration</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="5" class="empty">This run has no jobs.</td></tr>`}</tbody></table></div>
${artifactsBox(ctx, view)}`,
    );
  },
});

/** A step's log rows as a table: line numbers that are anchors, escaped text with its colours. */
function stepLog(stepNo: number, s: StepLog, rawHref: string): Html {
  if (s.lines.length === 0) return html`<p class="muted small log-empty">No output.</p>`;
  const first = s.cut + 1;
  const rows = s.lines.map((line, i) => {
    const n = first + i;
    const id = `jobstep-${stepNo}-${n}`;
    const marker = groupMarker(line.content);
    // A group's end says nothing to a reader (Gitea's view hides it too); its number is skipped.
    if (marker?.kind === "end") return html``;
    const time = line.time ? new Date(line.time).toISOString() : "";
    const text = marker?.kind === "start" ? html`<span class="log-group">${marker.title}</span>` : ansiToHtml(line.content);
    return html`<tr id="${id}"><td class="ln"><a href="#${id}">${n}</a></td><td class="log-time"><time datetime="${time}">${time.slice(11, 19)}</time></td><td class="code">${text}</td></tr>`;
  });
  return html`${s.cut ? html`<p class="muted small log-cut">The first ${s.cut} lines of this step are not shown here; <a href="${rawHref}" rel="nofollow">the full log</a> has them.</p>` : ""}<table class="code log"><tbody>${rows}</tbody></table>`;
}

/** `/actions/runs/{run}/jobs/{job}`: the job's steps, each a fold with its log rows. */
export const viewJob = page({
  access: readActions,
  async handler(ctx) {
    const { env, repo: rc } = ctx;
    requireActionsPages(env, rc);
    const view = runForWeb(env, rc, runParam(ctx));
    const jobIndex = jobParam(ctx);
    const job = jobOfRun(view, jobIndex);
    const steps = await jobStepsForWeb(env, job, LOG_BUDGET);
    const now = nowUnix();
    const href = `${runHref(repoPath(ctx.base, rc), view.run)}/jobs/${jobIndex}`;
    const folds = steps.steps.map((s, i) => {
      const took = durationText(duration(s.step.startedUnix, s.step.stoppedUnix, now), s.step.startedUnix > 0);
      // A step that failed or is running opens by itself, as Gitea's view expands them.
      const open = s.step.status === ActionStatus.Failure || s.step.status === ActionStatus.Running;
      return html`<details class="step" id="jobstep-${i}"${open ? html` open` : ""}><summary>${actionStatusIcon(s.step.status)}<span class="step-name">${s.step.name}</span><span class="muted small step-took">${
        took
      }</span></summary>${stepLog(i, s, `${href}/logs`)}</details>`;
    });
    const rerun =
      rc.perm.canWrite("actions") && isDone(job.status)
        ? postForm(ctx.state, `${href}/rerun`, html`<button type="submit">Re-run this job</button>`, html` class="inline"`)
        : "";
    const detail = steps.logExpired
      ? html`<p class="muted">The logs of this job have been cleaned up.</p>`
      : !steps.task
        ? html`<p class="muted">${job.status === ActionStatus.Blocked ? "This job waits for the jobs it needs." : job.status === ActionStatus.Waiting ? "Waiting for a runner to pick up this job." : "This job did not run."}</p>`
        : "";
    return pageOf(
      ctx,
      view,
      `${job.name} · ${view.run.title}`,
      html`${runHead(ctx, view, now)}
<div class="run-layout">${jobsNav(repoPath(ctx.base, rc), view.run, view.jobs, jobIndex, now)}
<section class="job-view box" aria-labelledby="job-title">
<header class="box-header job-head"><h2 id="job-title">${actionStatusIcon(job.status)} ${job.name}</h2><span class="muted small">${statusWords(job.status)}${
        job.startedUnix ? html` · ${durationText(duration(job.startedUnix, job.stoppedUnix, now), true)}` : ""
      }</span><span class="job-buttons">${steps.task && !steps.logExpired ? html`<a class="button" href="${href}/logs" rel="nofollow">Download log</a>` : ""}${rerun}</span></header>
${detail}
${folds.length ? html`<div class="steps">${folds}</div>` : ""}
</section></div>`,
    );
  },
});

/** `/actions/runs/{run}/jobs/{job}/logs`: the job's log as a text file (Gitea's Logs). */
export const jobLogs = page({
  access: readActions,
  async handler(ctx) {
    const { env, repo: rc } = ctx;
    requireActionsPages(env, rc);
    const view = runForWeb(env, rc, runParam(ctx));
    const job = jobOfRun(view, jobParam(ctx));
    const log = await jobLogText(env, view.run, job);
    return new Response(log.text, {
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Disposition": contentDisposition("attachment", log.fileName),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
      },
    });
  },
});

/** Back to the run's page after a button, with what happened. */
function backToRun(ctx: PageContext & { repo: RepoContext }, index: number, text: string, kind: "success" | "error" = "success"): Response {
  return ctx.redirect(`/${encodeURIComponent(ctx.repo.owner.name)}/${encodeURIComponent(ctx.repo.repo.name)}/actions/runs/${index}`, { kind, text });
}

/** A number for a POST: `latest` is for viewing only. */
function postedRun(ctx: PageContext): number {
  const r = runParam(ctx);
  if (r === "latest") throw new NotFound();
  return r;
}

export const cancel = page({
  access: writeActions,
  handler(ctx) {
    requireActionsPages(ctx.env, ctx.repo);
    const index = postedRun(ctx);
    const cancelled = cancelRunByIndex(ctx.env, ctx.repo, index);
    return backToRun(ctx, index, cancelled ? "The run was cancelled." : "The run had already finished.", cancelled ? "success" : "error");
  },
});

async function rerunAnswer(ctx: PageContext & { repo: RepoContext }, index: number, run: () => void, done: string): Promise<Response> {
  try {
    run();
  } catch (err) {
    if (err instanceof Invalid) return backToRun(ctx, index, err.message, "error");
    throw err;
  }
  return backToRun(ctx, index, done);
}

export const rerunAll = page({
  access: writeActions,
  handler(ctx) {
    requireActionsPages(ctx.env, ctx.repo);
    const index = postedRun(ctx);
    return rerunAnswer(ctx, index, () => rerunByIndex(ctx.env, ctx.repo, index), "All jobs of the run will run again.");
  },
});

export const rerunJob = page({
  access: writeActions,
  handler(ctx) {
    requireActionsPages(ctx.env, ctx.repo);
    const index = postedRun(ctx);
    const jobIndex = jobParam(ctx);
    return rerunAnswer(ctx, index, () => rerunByIndex(ctx.env, ctx.repo, index, jobIndex), "The job will run again.");
  },
});

// ── artifacts ──

/** A file's outline (octicon-file), for an artifact's row. */
const fileIcon = html`<svg class="octicon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"><path d="M3.75 1.75h5.5l3 3v9.5h-8.5z"/><path d="M9.25 1.75v3h3"/></svg>`;

/**
 * The run's artifacts (Gitea's view lists them beside the jobs): each name with its size, a link
 * to its zip unless it expired, and for writers of a finished run a delete button.
 */
function artifactsBox(ctx: PageContext & { repo: RepoContext }, view: RunView): Html {
  const { items, total } = runArtifactsForWeb(ctx.env, ctx.repo, view.run);
  if (items.length === 0) return html``;
  const href = `${runHref(repoPath(ctx.base, ctx.repo), view.run)}/artifacts`;
  // Gitea's CanDeleteArtifact: a writer of the Actions unit, once the run is done.
  const canDelete = ctx.repo.perm.canWrite("actions") && isDone(view.run.status);
  const rows = items.map((a) => {
    const at = `${href}/${encodeURIComponent(a.name)}`;
    const name = a.expired
      ? html`<span class="artifact-name muted">${fileIcon}<span>${a.name}</span></span> <span class="tag">Expired</span>`
      : html`<a class="artifact-name" href="${at}" rel="nofollow">${fileIcon}<span>${a.name}</span></a>`;
    const del =
      canDelete && !a.expired
        ? postForm(ctx.state, `${at}/delete`, html`<button type="submit" class="small-button danger">Delete<span class="sr-only"> ${a.name}</span></button>`, html` class="inline"`)
        : "";
    return html`<tr><td class="name">${name}</td><td class="artifact-size">${fileSize(a.size)}</td><td class="artifact-actions">${del}</td></tr>`;
  });
  const more = total > items.length ? html`<p class="muted small artifacts-more">${total - items.length} more artifacts are not listed here.</p>` : "";
  return html`<section class="box run-artifacts" aria-labelledby="run-artifacts-title">
<header><h2 id="run-artifacts-title">Artifacts</h2><span class="muted small">Produced during this run</span></header>
<table class="list" aria-labelledby="run-artifacts-title">
<thead><tr><th scope="col">Name</th><th scope="col" class="artifact-size">Size</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table>${more}</section>`;
}

/** A stream pulling the generator's bytes as the client takes them; a client that leaves stops it (its files close). */
function pulledFrom(gen: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await gen.next();
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    async cancel() {
      await gen.return(undefined);
    },
  });
}

/**
 * `/actions/runs/{run}/artifacts/{artifact_name}`: the artifact as a zip (Gitea's
 * ArtifactsDownloadView); scripts may fetch it with a token, as Gitea's web accepts on downloads.
 */
export const downloadArtifact = page({
  access: { scope: "repository", signIn: false, repo: { read: "actions" } },
  acceptsTokens: true,
  handler(ctx) {
    const { env, repo: rc } = ctx;
    requireActionsPages(env, rc);
    const view = runForWeb(env, rc, runParam(ctx));
    const dl = runArtifactDownload(env, rc, view.run, ctx.params.artifact_name ?? "");
    const headers = userContentHeaders(env.settings, { contentType: "application/zip", filename: dl.fileName, disposition: "attachment", cachePublic: false });
    headers.set("Last-Modified", new Date(dl.modified * 1000).toUTCString());
    if (dl.kind === "file") {
      headers.set("Content-Length", String(dl.size));
      return new Response(Bun.file(dl.path), { headers });
    }
    return new Response(pulledFrom(dl.body), { headers });
  },
});

/** `/actions/runs/{run}/artifacts/{artifact_name}/delete`: the artifact goes to the deletion sweep. */
export const deleteArtifact = page({
  access: writeActions,
  handler(ctx) {
    const { env, repo: rc } = ctx;
    requireActionsPages(env, rc);
    const index = postedRun(ctx);
    const view = runForWeb(env, rc, index);
    const name = ctx.params.artifact_name ?? "";
    return deleteRunArtifacts(env, rc, view.run, name, nowUnix())
      ? backToRun(ctx, index, `The artifact “${name}” was deleted.`)
      : backToRun(ctx, index, `This run has no artifact “${name}” to delete.`, "error");
  },
});
