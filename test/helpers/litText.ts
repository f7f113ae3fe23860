/**
 * A lit `TemplateResult` as the HTML it would render to, for unit tests of the panel's tabs in Node
 * (no DOM): the template's static strings joined with its values, recursively (arrays, nested
 * templates); `nothing`, null and undefined render as ''. Attribute and property bindings keep their
 * value as text, so assertions should target element content.
 */
import { nothing } from 'lit';

interface TemplateLike {
  strings: ArrayLike<string>;
  values: unknown[];
}

const isTemplate = (v: unknown): v is TemplateLike => !!v && typeof v === 'object' && 'strings' in v && 'values' in v;

export function litHtml(v: unknown): string {
  if (v === nothing || v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(litHtml).join('');
  if (isTemplate(v)) {
    let out = v.strings[0];
    for (let i = 0; i < v.values.length; i++) out += litHtml(v.values[i]) + v.strings[i + 1];
    return out;
  }
  return String(v);
}

/** The text of `litHtml(v)`: tags removed, whitespace collapsed. */
export function litText(v: unknown): string {
  return litHtml(v).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}
