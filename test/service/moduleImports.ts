/**
 * The module specifiers a TypeScript file imports — static `import … from`, side-effect `import "…"`,
 * `export … from`, `import type`, dynamic `import("…")` and `typeof import("…")` — found in its code
 * only: comments, string and template literal contents and regular expression literals are blanked
 * out first, so an import quoted in a doc comment or a string does not count. Used by the layering
 * test; no parser dependency (TypeScript 7 ships no JS compiler API).
 */

export type ModuleImport = {
  specifier: string;
  /** 1-based line of the `import`/`export` keyword. */
  line: number;
  kind: "static" | "dynamic";
};

/** `import(x)` with anything but a string literal: the layering test cannot check it. */
export type UncheckableImport = { line: number };

/** Keywords after which a `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORD = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);

/**
 * `text` with comments, regular expression literals and the contents of template literals replaced by
 * spaces (newlines kept, so offsets and line numbers stay), and string literals kept as they are.
 */
export function codeOnly(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n") out[i] = " ";
  };
  // The last significant character and word, to tell a regex literal from a division.
  let lastChar = "";
  let lastWord = "";
  let i = 0;
  // Brace depth of each open template literal's `${`, innermost last.
  const templates: number[] = [];
  let braces = 0;
  const scanTemplate = (start: number): number => {
    // From just after "`" or "}" of a substitution to just after the closing "`" or the "${".
    let j = start;
    while (j < text.length) {
      if (text[j] === "\\") j += 2;
      else if (text[j] === "`") {
        blank(start, j);
        return j + 1;
      } else if (text[j] === "$" && text[j + 1] === "{") {
        blank(start, j);
        templates.push(braces);
        braces += 1;
        return j + 2;
      } else j++;
    }
    blank(start, text.length);
    return text.length;
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      i = j + 1;
      lastChar = c;
      lastWord = "";
    } else if (c === "`") {
      i = scanTemplate(i + 1);
      lastChar = "`";
      lastWord = "";
    } else if (c === "}" && templates.length > 0 && braces - 1 === templates[templates.length - 1]) {
      templates.pop();
      braces -= 1;
      i = scanTemplate(i + 1);
      lastChar = "`";
      lastWord = "";
    } else if (c === "/" && (lastChar === "" || "(,=:[!&|?{};+-*%<>~^".includes(lastChar) || REGEX_AFTER_WORD.has(lastWord))) {
      // A regular expression literal: up to the unescaped "/" outside a character class, then flags.
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n") {
        if (text[j] === "\\") j += 2;
        else if (text[j] === "[") (inClass = true), j++;
        else if (text[j] === "]") (inClass = false), j++;
        else if (text[j] === "/" && !inClass) break;
        else j++;
      }
      j += 1;
      while (j < text.length && /[a-z]/i.test(text[j]!)) j++;
      blank(i, j);
      i = j;
      lastChar = "/";
      lastWord = "";
    } else {
      if (c === "{") braces += 1;
      else if (c === "}") braces -= 1;
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      if (/[A-Za-z0-9_$]/.test(c)) {
        let j = i;
        while (j < text.length && /[A-Za-z0-9_$]/.test(text[j]!)) j++;
        lastWord = text.slice(i, j);
        lastChar = "a";
        i = j;
        continue;
      }
      lastChar = c;
      lastWord = "";
      i++;
    }
  }
  return out.join("");
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

// `import x from "m"`, `import type {…} from "m"`, `export {…} from "m"`, `export * as n from "m"`:
// a statement start, the keyword, a clause without quotes, semicolons, `=` or parentheses (so never an
// `export const …` or `export function …`), `from` and a string.
const STATIC = /(^|[;{}])\s*(import|export)\b[^;"'`=()]*?\bfrom\s*(["'])([^"'\n]+)\3/gm;
// `import "m"` (side effects only).
const SIDE_EFFECT = /(^|[;{}])\s*(import)\s*(["'])([^"'\n]+)\3/gm;
// `import("m")`, `typeof import("m")`.
const DYNAMIC = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*[,)]/g;
const ANY_DYNAMIC = /\bimport\s*\(/g;

export function importsOf(text: string): { imports: ModuleImport[]; uncheckable: UncheckableImport[] } {
  const code = codeOnly(text);
  const imports: ModuleImport[] = [];
  for (const pattern of [STATIC, SIDE_EFFECT]) {
    for (const match of code.matchAll(pattern)) {
      const keyword = match.index! + match[0].indexOf(match[2]!, match[1]!.length);
      imports.push({ specifier: match[4]!, line: lineOf(code, keyword), kind: "static" });
    }
  }
  const dynamic = new Set<number>();
  for (const match of code.matchAll(DYNAMIC)) {
    dynamic.add(match.index!);
    imports.push({ specifier: match[2]!, line: lineOf(code, match.index!), kind: "dynamic" });
  }
  const uncheckable = [...code.matchAll(ANY_DYNAMIC)].filter((match) => !dynamic.has(match.index!)).map((match) => ({ line: lineOf(code, match.index!) }));
  imports.sort((a, b) => a.line - b.line);
  return { imports, uncheckable };
}
