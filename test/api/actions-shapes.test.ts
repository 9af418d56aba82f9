import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type * as v from "valibot";
import * as shapes from "../../src/shapes/actions.ts";

/**
 * The Actions shapes declare exactly the fields of Gitea 1.25's definitions of the same name (the
 * reference API document), so a response checked against them is checked against Gitea's.
 */
const reference = JSON.parse(readFileSync(resolve(import.meta.dir, "../../../shared/reference/gitea-api-v1.swagger.json"), "utf8")) as {
  definitions: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
};

const NAMED = [
  "ActionRunner",
  "ActionRunnerLabel",
  "ActionRunnersResponse",
  "ActionWorkflowRun",
  "ActionWorkflowRunsResponse",
  "ActionWorkflowStep",
  "ActionWorkflowJob",
  "ActionWorkflowJobsResponse",
  "ActionTask",
  "ActionTaskResponse",
  "ActionWorkflow",
  "ActionWorkflowResponse",
  "CreateActionWorkflowDispatch",
] as const;

describe("Actions shapes match Gitea's definitions", () => {
  for (const name of NAMED) {
    test(name, () => {
      const schema = (shapes as unknown as Record<string, v.ObjectSchema<v.ObjectEntries, undefined>>)[name]!;
      const ours = Object.keys(schema.entries).sort();
      const theirs = Object.keys(reference.definitions[name]?.properties ?? {}).sort();
      expect(theirs.length).toBeGreaterThan(0);
      expect(ours).toEqual(theirs);
    });
  }
});
