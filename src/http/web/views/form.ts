import { html, type Html, type HtmlValue } from "../../../lib/html.ts";
import type { WebState } from "../state.ts";
import { csrfField } from "../layout.ts";

/** A POST form to a path of this site, with the `_csrf` field old scripts look for. */
export function postForm(state: WebState, action: string, body: HtmlValue, attrs: Html | string = ""): Html {
  return html`<form method="post" action="${action}"${typeof attrs === "string" ? "" : attrs}>${csrfField(state)}${body}</form>`;
}

export interface FieldOptions {
  type?: "text" | "password" | "email" | "url" | "search";
  value?: string;
  required?: boolean;
  autocomplete?: string;
  autofocus?: boolean;
  help?: string;
  inputmode?: "numeric" | "text";
  maxlength?: number;
}

/** A labelled input (the label names it for screen readers; help text is tied by aria-describedby). */
export function field(name: string, label: string, opts: FieldOptions = {}): Html {
  const id = `f-${name}`;
  return html`<label for="${id}">${label}</label>
<input id="${id}" name="${name}" type="${opts.type ?? "text"}"${opts.value !== undefined ? html` value="${opts.value}"` : ""}${
    opts.required ? html` required` : ""
  }${opts.autocomplete ? html` autocomplete="${opts.autocomplete}"` : ""}${opts.autofocus ? html` autofocus` : ""}${
    opts.inputmode ? html` inputmode="${opts.inputmode}"` : ""
  }${opts.maxlength ? html` maxlength="${opts.maxlength}"` : ""}${opts.help ? html` aria-describedby="${id}-help"` : ""}>
${opts.help ? html`<p class="field-help" id="${id}-help">${opts.help}</p>` : ""}`;
}

/** A local path to go back to after a form (`redirect_to`), never another site. */
export function safeRedirect(base: string, target: string | null | undefined): string | undefined {
  if (!target) return undefined;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return undefined;
  if (base && !target.startsWith(`${base}/`) && target !== base) return undefined;
  return target.slice(base.length) || "/";
}
