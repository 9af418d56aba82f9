// The part of highlight.js hearth uses, typed here instead of by highlight.js (see hljs-vendor.js).

/** A language definition: only ever handed to registerLanguage. */
export type LanguageFn = (hljs: unknown) => object;

export interface HighlightCore {
  registerLanguage(name: string, language: LanguageFn): void;
  listLanguages(): string[];
  getLanguage(name: string): { aliases?: string[] } | undefined;
  highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
}

export declare const languages: Record<string, LanguageFn>;
declare const hljs: HighlightCore;
export default hljs;
