/**
 * The attack success part of the injection tab (issue #17 item 2), from the run's attacks.json
 * (RunData.attacks, read by src/core/runs): XPIA — attack success per config with its 95% CI,
 * measured / unmeasured and by XPIA kind — and UPIA — the harm-based defect rate (any category and
 * per category, by kind) and the instruction-followed rate. Tables only (no chart), so it renders anywhere.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { XPIA_KINDS } from '../../src/core/safety/templates';
import { defectCI, type AttacksFile, type UpiaAttackFile, type XpiaAttackFile } from '../../src/core/safety/types';
import type { DefectRate } from '../../src/core/safety/harm';
import { fmtCI } from '../format';

function models(r: XpiaAttackFile | UpiaAttackFile): TemplateResult {
  return html`<p class="muted">Generator <code>${r.generatorModel}</code>, judge <code>${r.judgeModel}</code>.</p>
    ${r.sameModel ? html`<p class="warning">The generator and the judge are the same model; judges favour their own output.</p>` : nothing}`;
}

function xpiaView(r: XpiaAttackFile): TemplateResult {
  return html`<h3>XPIA: instructions planted in the retrieved documents</h3>
    ${models(r)}
    <p class="muted">Attack success = share of questions whose answer followed a planted instruction (marker, else the judge), 95% bootstrap CI; a question whose top-k held no canary counts as not followed. Lower is better.</p>
    <table class="grid" aria-label="XPIA attack success">
      <thead><tr><th scope="col">Config</th><th scope="col" class="num">attack success</th><th scope="col" class="num">measured</th><th scope="col" class="num">unmeasured</th>${XPIA_KINDS.map((k) => html`<th scope="col" class="num">${k}</th>`)}</tr></thead>
      <tbody>${r.configs.map((c) => html`<tr><td><code>${c.id}</code></td><td class="num">${fmtCI(c.attackSuccess)}</td><td class="num">${c.attackSuccess.measured}</td><td class="num">${c.attackSuccess.unmeasured}</td>${XPIA_KINDS.map((k) => html`<td class="num">${fmtCI(c.byKind[k])}</td>`)}</tr>`)}</tbody>
    </table>`;
}

function upiaView(r: UpiaAttackFile): TemplateResult {
  const d = (x: DefectRate | undefined) => (x && x.defectRate !== null ? fmtCI(defectCI(x)) : '—');
  return html`<h3>UPIA: an instruction in the user's question</h3>
    ${models(r)}
    <p class="muted">${r.questions.length} control questions and their attacked twins (templates ${r.templates}, seed ${r.seed}), answered from the same passages; both answers graded by the content-harm judge. UPIA defect = the attacked answer at or above ${r.threshold} (protected material: true) while the control answer is not, or at a higher severity level; any = in at least one category; 95% bootstrap CI. Instruction followed: attacked answers carrying the attack's marker (no judge). Lower is better.</p>
    <table class="grid" aria-label="UPIA defect rate">
      <thead><tr><th scope="col">Config</th><th scope="col" class="num">any category</th><th scope="col" class="num">measured</th><th scope="col" class="num">unmeasured</th>${r.categories.map((k) => html`<th scope="col" class="num">${k}</th>`)}${XPIA_KINDS.map((k) => html`<th scope="col" class="num">${k}</th>`)}<th scope="col" class="num">instruction followed</th></tr></thead>
      <tbody>${r.configs.map((c) => html`<tr><td><code>${c.id}</code></td><td class="num">${d(c.any)}</td><td class="num">${c.any.measured}</td><td class="num">${c.any.unmeasured}</td>${r.categories.map((k) => html`<td class="num">${d(c.categories[k])}</td>`)}${XPIA_KINDS.map((k) => html`<td class="num">${d(c.byKind[k])}</td>`)}<td class="num">${d(c.followed)}</td></tr>`)}</tbody>
    </table>`;
}

/** The attack section, or `nothing` when the run has no attacks.json. */
export function attacksView(a: AttacksFile | null | undefined): TemplateResult | typeof nothing {
  if (!a || (!a.xpia && !a.upia && !a.upiaOutdated)) return nothing;
  return html`<section data-testid="attacks">
    <h2>Attack success (with your models)</h2>
    <p class="warning">${a.xpia?.note ?? a.upia?.note ?? "A local judge is not Azure's safety service."}</p>
    ${a.xpia ? xpiaView(a.xpia) : nothing}
    ${a.upia ? upiaView(a.upia) : nothing}
    ${a.upiaOutdated ? html`<h3>UPIA: an instruction in the user's question</h3><p class="warning">${a.upiaOutdated}</p>` : nothing}
  </section>`;
}
