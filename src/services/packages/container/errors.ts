import { HearthError } from "../../../lib/errors.ts";

/**
 * The distribution spec's errors as Gitea's container registry answers them
 * (routers/api/packages/container/errors.go): a code, a status and a message, worded by the
 * container door as `{"errors":[{"code","message"}]}`.
 */
export class ContainerError extends HearthError {
  constructor(
    readonly code: string,
    status: number,
    message: string,
  ) {
    super(status, message);
  }
}

const named = (code: string, status: number, message: string) => (msg?: string, st?: number) => new ContainerError(code, st ?? status, msg ?? message);

export const errBlobUnknown = named("BLOB_UNKNOWN", 404, "blob unknown to registry");
export const errBlobUploadInvalid = named("BLOB_UPLOAD_INVALID", 400, "blob upload invalid");
export const errBlobUploadUnknown = named("BLOB_UPLOAD_UNKNOWN", 404, "blob upload unknown to registry");
export const errDigestInvalid = named("DIGEST_INVALID", 400, "provided digest did not match uploaded content");
export const errManifestBlobUnknown = named("MANIFEST_BLOB_UNKNOWN", 404, "blob unknown to registry");
export const errManifestInvalid = named("MANIFEST_INVALID", 400, "manifest invalid");
export const errManifestUnknown = named("MANIFEST_UNKNOWN", 404, "manifest unknown");
export const errNameInvalid = named("NAME_INVALID", 400, "invalid repository name");
export const errNameUnknown = named("NAME_UNKNOWN", 404, "repository name not known to registry");
export const errSizeInvalid = named("SIZE_INVALID", 400, "provided length did not match content length");
export const errUnsupported = named("UNSUPPORTED", 405, "The operation is unsupported");
