import { describe, expect, test } from "bun:test";
import {
  condaFileName,
  condaPackage,
  isValidCondaName,
  isValidCondaVersion,
  parseAboutJson,
  parseCondaDownloadPath,
  parseCondaUploadPath,
  parseIndexJson,
  InvalidCondaPackage,
} from "./conda.ts";

const enc = (o: unknown) => new TextEncoder().encode(typeof o === "string" ? o : JSON.stringify(o));

describe("conda packages as Gitea reads them", () => {
  test("conda-build's name and version rules", () => {
    for (const n of ["numpy", "py-lib_2.x", "a+b"]) expect(isValidCondaName(n)).toBe(true);
    for (const n of ["", "NumPy", "a!b", "a b", "a/b", "a=b", "a@b"]) expect(isValidCondaName(n)).toBe(false);
    for (const v of ["1.0", "1.0a1", "2024.1.post1", "1_2"]) expect(isValidCondaVersion(v)).toBe(true);
    for (const v of ["", "1-0", "1 0", "1:0"]) expect(isValidCondaVersion(v)).toBe(false);
  });

  test("index.json and about.json into Gitea's version and file metadata", () => {
    const index = parseIndexJson(enc({ name: "x", version: "1", build: "py_0", build_number: 0, subdir: "noarch", noarch: true, license: "BSD" }));
    const about = parseAboutJson(enc({ summary: "S", home: "https://h.example/", dev_url: "ftp://no", doc_url: "" }));
    const pkg = condaPackage(index, about, false);
    expect(pkg).toEqual({
      name: "x",
      version: "1",
      subdir: "noarch",
      versionMetadata: { summary: "S", project_url: "https://h.example/", license: "BSD" },
      fileMetadata: { noarch: "generic", build: "py_0", is_conda: false },
    });
    expect(condaFileName(pkg)).toBe("x-1-py_0.tar.bz2");
    expect(condaFileName(condaPackage(index, undefined, true))).toBe("x-1-py_0.conda");
    expect(() => parseIndexJson(enc({ name: "x", version: "1", depends: "a" }))).toThrow(InvalidCondaPackage);
    expect(() => parseIndexJson(enc("[]"))).toThrow(InvalidCondaPackage);
    expect(() => parseIndexJson(enc({ name: "X", version: "1" }))).toThrow("package name is invalid");
    expect(() => parseIndexJson(enc({ name: "x", version: "1-2" }))).toThrow("package version is invalid");
  });

  test("Gitea's path patterns: the channel is everything before the subdir", () => {
    expect(parseCondaDownloadPath("noarch/repodata.json")).toEqual({ channel: "", subdir: "noarch", filename: "repodata.json" });
    expect(parseCondaDownloadPath("a/b/linux-64/x-1-0.conda")).toEqual({ channel: "a/b", subdir: "linux-64", filename: "x-1-0.conda" });
    expect(parseCondaDownloadPath("c/noarch/current_repodata.json.bz2")?.filename).toBe("current_repodata.json.bz2");
    expect(parseCondaDownloadPath("repodata.json")).toBeUndefined();
    expect(parseCondaDownloadPath("noarch/index.html")).toBeUndefined();
    expect(parseCondaUploadPath("x-1-0.tar.bz2")).toEqual({ channel: "", filename: "x-1-0.tar.bz2" });
    expect(parseCondaUploadPath("ch/x.conda")).toEqual({ channel: "ch", filename: "x.conda" });
    expect(parseCondaUploadPath("ch/x.zip")).toBeUndefined();
  });
});
