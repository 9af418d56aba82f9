import { describe, expect, test } from "bun:test";
import { escapeHtml, html, join, trusted } from "./html.ts";

describe("html templates", () => {
  test("escape every value that is not markup", () => {
    const name = `"><script>alert(1)</script>`;
    expect(html`<a title="${name}">${name}</a>`.value).toBe(
      `<a title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>`,
    );
    expect(escapeHtml("it's & <b>")).toBe("it&#39;s &amp; &lt;b&gt;");
  });

  test("nest markup, flatten lists and drop empty values", () => {
    const items = ["a<", "b"].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${3}`.value).toBe("<ul><li>a&lt;</li><li>b</li></ul>3");
    expect(html`${trusted("<b>x</b>")}`.value).toBe("<b>x</b>");
    expect(join(["a", "<b>", trusted("<i>")], html`, `).value).toBe("a, &lt;b&gt;, <i>");
  });
});
