import { describe, expect, test } from "bun:test";
import { maskUrlCredentials } from "./url-credentials.ts";

describe("maskUrlCredentials", () => {
  test("masks the user information of every URL, by structure", () => {
    expect(maskUrlCredentials("fatal: unable to access 'https://user:p@ss@host.test/repo.git/': 403")).toBe(
      "fatal: unable to access 'https://(masked)@host.test/repo.git/': 403",
    );
    expect(maskUrlCredentials("a http://u@a.test and https://x:y@b.test:8443/r")).toBe(
      "a http://(masked)@a.test and https://(masked)@b.test:8443/r",
    );
    expect(maskUrlCredentials("https://us%40er:pa%3Ass@h.test")).toBe("https://(masked)@h.test");
  });

  test("leaves text without user information alone, whatever it contains", () => {
    const text = "fatal: unable to access 'http://127.0.0.1:9/repo.git/': Failed to connect";
    expect(maskUrlCredentials(text)).toBe(text);
    // An "@" after the authority (a path, a mail address after a space) is not user information.
    expect(maskUrlCredentials("http://host.test/a@b and mail me@x.test")).toBe("http://host.test/a@b and mail me@x.test");
    expect(maskUrlCredentials("no url here: p@p")).toBe("no url here: p@p");
    expect(maskUrlCredentials("dangling http://")).toBe("dangling http://");
  });
});
