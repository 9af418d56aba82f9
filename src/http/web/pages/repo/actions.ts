/**
 * `/{owner}/{repo}/actions`: the repository's workflow runs (Gitea's actions.List and its
 * templates/repo/actions/list.tmpl): the workflow files of the default branch beside the runs,
 * newest first, filtered by `?workflow=`, `?actor=` (an account id) and `?status=` (Gitea's
 * status number), paged.
 */
import { html, type Html } from "../../../../lib/html.ts";
import { nowUnix } from "../../../../lib/time.ts";
import { ActionStatus, listRunsForWeb, requireActionsPages, runActors, workflowsOfRepo, type RunListItem } from "../../../../services/actions/web-views.ts";
import type { Env } from "../../../../services/env.ts";
import { setWorkflowEnabled } from "../../../../services/actions/web-actions.ts";
import { Invalid } from "../../../../lib/errors.ts";
import { postForm } from "../../views/form.ts";
import { page } from "../../page.ts";
import { actionStatusIcon, durationText, statusWords } from "../../views/action-status.ts";
import { actorLink, refLabel, runHref, runSeconds } from "../../views/action-run.ts";
import { shortSha } from "../../views/commit-list.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { repoHeader, repoPath } from "../../views/repo-header.ts";
import { timeAgo } from "../../views/time.ts";

/** Runs on a page (Gitea's default page size for the list). */
const PER_PAGE = 30;

/** The states the status filter offers, in Gitea's order (actions.status.*). */
const STATUS_CHOICES = [
  ActionStatus.Waiting,
  ActionStatus.Running,
  ActionStatus.Success,
  ActionStatus.Failure,
  ActionStatus.Cancelled,
  ActionStatus.Skipped,
  ActionStatus.Blocked,
] as const;

/** A positive whole number of `?name=`, else undefined (Gitea's FormInt reads junk as 0, "all"). */
function positive(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name) ?? "";
  return /^\d{1,15}$/.test(v) && Number(v) > 0 ? Number(v) : undefined;
}

function runRow(env: Env, base: string, at: string, item: RunListItem, showWorkflow: boolean, now: number): Html {
  const { run, actor } = item;
  const took = durationText(runSeconds(run, now), run.startedUnix > 0 || run.previousDuration > 0);
  const what = run.scheduleId
    ? html`Scheduled`
    : html`Commit <a class="mono" href="${at}/commit/${run.commitSha}">${shortSha(run.commitSha)}</a> pushed by ${actorLink(env, base, actor)}`;
  return html`<li class="run-row">${actionStatusIcon(run.status)}
<div class="run-main"><a class="run-title" href="${runHref(at, run)}">${run.title || "(no title)"}</a>
<p class="run-meta">${showWorkflow ? html`<strong>${run.workflowId}</strong> ` : ""}#${run.index}: ${what} <span class="tag run-event"><span class="sr-only">event </span>${run.triggerEvent}</span></p></div>
<div class="run-side">${refLabel(at, run.ref)}<span class="run-when">${timeAgo(run.createdUnix, now)}</span>${
    took ? html`<span class="run-took"><span class="sr-only">Duration </span>${took}</span>` : ""
  }</div></li>`;
}

export const list = page({
  access: { scope: "public", signIn: false, repo: { read: "actions" } },
  async handler(ctx) {
    const { env, base, repo: rc } = ctx;
    requireActionsPages(env, rc);
    const at = repoPath(base, rc);
    const workflow = (ctx.query.get("workflow") ?? "").trim();
    const actorId = positive(ctx.query, "actor");
    const asked = positive(ctx.query, "status");
    const status = asked !== undefined && (STATUS_CHOICES as readonly number[]).includes(asked) ? asked : undefined;
    const pageNo = pageNumber(ctx.query);
    const workflows = await workflowsOfRepo(env, rc);
    const actors = runActors(env, rc);
    const result = listRunsForWeb(env, rc, { workflow, actorId, status }, { offset: (pageNo - 1) * PER_PAGE, limit: PER_PAGE });
    const now = nowUnix();

    const keep = (changes: Record<string, string | undefined>) => {
      const q = new URLSearchParams();
      const all = { workflow: workflow || undefined, actor: actorId?.toString(), status: status?.toString(), ...changes };
      for (const [k, v] of Object.entries(all)) if (v) q.set(k, v);
      const s = q.toString();
      return `${at}/actions${s ? `?${s}` : ""}`;
    };
    const sidebar = html`<nav class="workflow-list" aria-label="Workflows"><h2 class="sr-only">Workflows</h2><ul>
<li><a href="${keep({ workflow: undefined })}"${workflow ? "" : html` aria-current="page"`}>All workflows</a></li>
${workflows.map(
  (w) =>
    html`<li><a href="${keep({ workflow: w.id })}"${w.id === workflow ? html` aria-current="page"` : ""}>${w.id}</a>${
      w.disabled ? html` <span class="tag">Disabled</span>` : ""
    }${w.error ? html` <span class="tag warn" title="${w.error}">Invalid</span><span class="sr-only">: ${w.error}</span>` : ""}</li>`,
)}</ul></nav>`;
    const filters = html`<form class="inline-form run-filters" method="get" action="${at}/actions">
${workflow ? html`<input type="hidden" name="workflow" value="${workflow}">` : ""}
<label for="f-actor">Actor</label>
<select id="f-actor" name="actor"><option value="0">All actors</option>${actors.map(
      (a) => html`<option value="${a.id}"${a.id === actorId ? html` selected` : ""}>${a.name}</option>`,
    )}</select>
<label for="f-status">Status</label>
<select id="f-status" name="status"><option value="0">All statuses</option>${STATUS_CHOICES.map(
      (s) => html`<option value="${s}"${s === status ? html` selected` : ""}>${statusWords(s)}</option>`,
    )}</select>
<button type="submit">Filter</button>${actorId || status ? html` <a href="${keep({ actor: undefined, status: undefined })}">Clear filters</a>` : ""}
</form>`;
    const current = workflows.find((w) => w.id === workflow);
    // Gitea offers an administrator the switch of the workflow the list is narrowed to.
    const switcher =
      workflow && rc.perm.isAdmin()
        ? postForm(
            ctx.state,
            `${at}/actions/${current?.disabled ? "enable" : "disable"}?workflow=${encodeURIComponent(workflow)}`,
            html`<button type="submit">${current?.disabled ? "Enable workflow" : "Disable workflow"}</button>`,
            html` class="inline"`,
          )
        : "";
    const notice = current?.disabled ? html`<p class="flash warning">This workflow is disabled: events do not start it.</p>` : "";
    const filtered = Boolean(actorId || status);
    const empty = workflows.length === 0 && result.total === 0 && !workflow && !filtered
      ? html`<div class="box"><div class="empty"><p><strong>There are no workflows yet.</strong></p><p>Add a workflow file under <code>.gitea/workflows/</code> or <code>.github/workflows/</code> on the default branch.</p></div></div>`
      : html`<div class="box"><p class="empty">${filtered ? "No runs match these filters." : "No runs yet."}</p></div>`;
    const rows = result.items.map((item) => runRow(env, base, at, item, !workflow, now));
    return ctx.render({
      title: `Actions · ${rc.owner.name}/${rc.repo.name}`,
      body: html`${repoHeader(base, rc, "actions")}
<div class="actions-layout">${sidebar}
<div class="actions-main">
<div class="list-head"><h2 class="list-title">${workflow || "All workflows"} <span class="counter">${result.total}</span></h2>${
      switcher ? html`<div class="workflow-switch">${switcher}</div>` : ""
    }</div>
${notice}${filters}
${rows.length ? html`<div class="box"><ul class="run-list">${rows}</ul></div>` : empty}
${pager(ctx.url, pageNo, PER_PAGE, result.total)}
</div></div>`,
    });
  },
});

/** `POST /actions/disable?workflow=` and `/enable`: back to the workflow's runs with what happened. */
function switchWorkflow(enabled: boolean) {
  return page({
    access: { scope: "public", signIn: false, repo: { read: "actions", admin: true } },
    handler(ctx) {
      const { env, repo: rc } = ctx;
      requireActionsPages(env, rc);
      const workflow = (ctx.query.get("workflow") ?? ctx.form.get("workflow") ?? "").trim();
      const back = `/${encodeURIComponent(rc.owner.name)}/${encodeURIComponent(rc.repo.name)}/actions`;
      try {
        setWorkflowEnabled(env, rc, workflow, enabled);
      } catch (err) {
        if (err instanceof Invalid) return ctx.redirect(back, { kind: "error", text: err.message });
        throw err;
      }
      return ctx.redirect(`${back}?workflow=${encodeURIComponent(workflow)}`, {
        kind: "success",
        text: enabled ? "Workflow enabled successfully." : "Workflow disabled successfully.",
      });
    },
  });
}

export const disableWorkflow = switchWorkflow(false);
export const enableWorkflow = switchWorkflow(true);
