/** HTML with every interpolated value escaped; `raw` marks markup built by this module. */
export interface Html {
  readonly html: string;
}

export function raw(html: string): Html {
  return { html };
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

export function html(
  strings: TemplateStringsArray,
  ...values: (string | number | Html | Html[] | null | undefined)[]
): Html {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? "");
  });
  return raw(out);
}

function render(value: string | number | Html | Html[] | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((part) => part.html).join("");
  if (typeof value === "object") return value.html;
  return escapeHtml(String(value));
}
