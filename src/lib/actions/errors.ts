/** A workflow the server cannot use; the message says what to fix. Shared by the workflow and event readers. */
export class WorkflowError extends Error {
  override name = "WorkflowError";
}
