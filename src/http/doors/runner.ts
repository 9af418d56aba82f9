import type { Env } from "../../services/env.ts";
import type { ActionRunnerRow } from "../../db/schema/index.ts";
import { authenticateRunner, touchRunner } from "../../services/actions/runners.ts";
import { ConnectError, connectErrorResponse } from "../runner/connect.ts";
import { HearthError } from "../../lib/errors.ts";

/**
 * The Actions runners' door (`/api/actions/`, Connect RPC). Its caller is a runner, not an
 * account: `x-runner-uuid` and `x-runner-token` name one registered runner, on every procedure
 * but Register (whose registration token is checked by the service). What a runner may touch is
 * its own tasks, which the services check against the runner. Errors are Connect errors.
 */
export interface RunnerDoor {
  /** The runner the call speaks for, or an `unauthenticated` Connect error; the call counts as contact. */
  runnerOf(request: Request, reporting: boolean): ActionRunnerRow;
  /** Any error of a procedure as a Connect error response. */
  errorResponse(err: unknown): Response;
}

export function runnerDoor(env: Env): RunnerDoor {
  return {
    runnerOf(request, reporting) {
      const uuid = request.headers.get("x-runner-uuid") ?? "";
      const token = request.headers.get("x-runner-token") ?? "";
      if (!uuid || !token) throw new ConnectError("unauthenticated", "missing runner uuid or token");
      const runner = authenticateRunner(env, uuid, token);
      if (!runner) throw new ConnectError("unauthenticated", "unregistered runner");
      touchRunner(env, runner, reporting);
      return runner;
    },
    errorResponse(err) {
      if (err instanceof ConnectError) return connectErrorResponse(err);
      if (err instanceof HearthError) {
        const code = err.status === 404 ? "not_found" : err.status === 401 ? "unauthenticated" : err.status === 403 ? "permission_denied" : "invalid_argument";
        return connectErrorResponse(new ConnectError(code, err.message));
      }
      env.log.error("runner procedure failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      return connectErrorResponse(new ConnectError("internal", "internal error"));
    },
  };
}
