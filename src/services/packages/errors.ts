import { Conflict, Forbidden } from "../../lib/errors.ts";

/** Gitea's ErrDuplicatePackageVersion: 409 on every registry (since Gitea 1.21, npm's included). */
export class DuplicatePackageVersion extends Conflict {
  constructor() {
    super("package version already exists");
  }
}

/** Gitea's ErrDuplicatePackageFile. */
export class DuplicatePackageFile extends Conflict {
  constructor() {
    super("package file already exists");
  }
}

/** Gitea's quota errors (ErrQuotaTotalCount, ErrQuotaTypeSize, ErrQuotaTotalSize): 403 on every registry. */
export class PackageQuotaExceeded extends Forbidden {}
