/**
 * Typed domain errors. Services throw these; http/ maps each to Gitea's status code and
 * `{"message", "url"}` body in one place, so no route decides a status code by itself.
 */
export class HearthError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is understood but cannot be acted on (Gitea uses it for e.g. bad token scopes). */
export class BadRequest extends HearthError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 401: no or bad credentials. */
export class Unauthorized extends HearthError {
  constructor(message = "unauthorized") {
    super(401, message);
  }
}

/** 403: credentials are fine but the doer may not do this. */
export class Forbidden extends HearthError {
  constructor(message = "forbidden") {
    super(403, message);
  }
}

export class NotFound extends HearthError {
  constructor(message = "not found") {
    super(404, message);
  }
}

export class Conflict extends HearthError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 422: input failed validation (Gitea's validationError). */
export class Invalid extends HearthError {
  constructor(message: string) {
    super(422, message);
  }
}

export class TooLarge extends HearthError {
  constructor(message = "request body too large") {
    super(413, message);
  }
}

export class TooManyRequests extends HearthError {
  constructor(
    readonly retryAfterSeconds: number,
    message = "too many requests",
  ) {
    super(429, message);
  }
}

/**
 * To where a renamed or transferred resource now lives, as Gitea redirects: 307 for a renamed
 * account (RedirectToUser), 301 for a renamed or transferred repository (RedirectToRepo, which git
 * clients only follow when it is permanent).
 */
export class Redirect extends HearthError {
  constructor(
    readonly location: string,
    status: 301 | 307 = 307,
  ) {
    super(status, "moved");
  }
}

/**
 * A user or organization was renamed: the request named it by a former name. http/ answers 307 to
 * the same URL with the current name, as Gitea's RedirectToUser.
 */
export class AccountMoved extends HearthError {
  constructor(
    readonly oldName: string,
    readonly newName: string,
  ) {
    super(307, "moved");
  }
}

/**
 * 403 for a token scoped `public-only` that reached a private repository, user or organization the
 * account itself could see. The runner words it as Gitea's checkTokenPublicOnly does for the
 * operation's scope categories ("... public issues" on an issue route, for example).
 */
export class PublicOnlyRefused extends Forbidden {
  constructor(
    readonly resource: "repo" | "org" | "user",
    noun = `${resource}s`,
  ) {
    super(`token scope is limited to public ${noun}`);
  }

  /** Gitea's wording for a repository refused on a route of `categories`: the first category that checks one. */
  worded(categories: readonly string[]): PublicOnlyRefused {
    if (this.resource !== "repo" || categories.length === 0 || categories.includes("repository")) return this;
    if (categories.includes("issue")) return new PublicOnlyRefused("repo", "issues");
    if (categories.includes("notification")) return new PublicOnlyRefused("repo", "notifications");
    return this;
  }
}
