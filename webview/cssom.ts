/**
 * `cssProps({...})`: an element directive that sets inline style properties through the CSSOM
 * (`el.style.setProperty`), which a strict CSP allows. lit's own `styleMap` writes the `style`
 * attribute as a string on its first render, and the panel's CSP (no 'unsafe-inline') blocks that.
 * Property names are CSS names (`left`, `background-color`, `--my-var`).
 */
import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

type Props = Readonly<Record<string, string | null | undefined>>;

class CssProps extends Directive {
  private previous = new Set<string>();

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ELEMENT) throw new Error('cssProps() must be used on an element, not in an attribute.');
  }

  render(_props: Props): typeof noChange {
    return noChange;
  }

  override update(part: ElementPart, [props]: [Props]): typeof noChange {
    const style = (part.element as HTMLElement).style;
    for (const name of this.previous) if (props[name] === null || props[name] === undefined) style.removeProperty(name);
    this.previous = new Set();
    for (const [name, value] of Object.entries(props)) {
      if (value === null || value === undefined) continue;
      style.setProperty(name, value);
      this.previous.add(name);
    }
    return noChange;
  }
}

export const cssProps = directive(CssProps);
