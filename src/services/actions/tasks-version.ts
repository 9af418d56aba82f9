/**
 * The runners' tasks version (Gitea's ActionTasksVersion): a runner sends the version its last
 * FetchTask saw, and while nothing became runnable since, the answer is "no task" without a
 * query. It moves whenever a job starts waiting; it starts from the clock so that a restarted
 * server never repeats a version a runner still holds.
 */
let version = Date.now();

export function tasksVersion(): number {
  return version;
}

export function bumpTasksVersion(): void {
  version += 1;
}
