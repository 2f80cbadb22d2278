// The editor's side panels as the accepted tree and its run say: the what-if
// figures, the search options, the selected node's fields, the text boxes.
// They only show the page's state; editing them goes through editor.js.

import * as D from './editor-doc.js';
import { show } from '../core/model.js';
import { t } from '../core/i18n.js';
import { shortName } from '../core/algorithms.js';

const TEXT = {
  kinds: { leaf: t('leaf'), chance: t('chance') },
  none: '—',
  ofMinimax: (n) => t('of {n} for minimax', { n }),
  automatic: (id) => t('{id} (automatic)', { id }),
};

const $ = (sel, root = document) => root.querySelector(sel);

/** The run's figures: value, best move, counts (and the core's sentence at first). */
export function showResult(state) {
  const r = state.result;
  const set = (name, text) => { $(`[data-result="${name}"]`).textContent = text; };
  set('value', show(r.value) || TEXT.none);
  set('best-move', r.best_move || TEXT.none);
  set('evaluated', `${r.stats.evaluated} ${TEXT.ofMinimax(r.stats.minimax_evaluated)}`);
  set('cutoffs', String(r.stats.cutoffs));
  set('saved', String(r.stats.saved));
  const note = $('[data-result="note"]');
  note.textContent = state.change || state.revision > 1 ? '' : r.text;
  note.hidden = !note.textContent;
}

/** The options the run was made with (the algorithms that fit the tree to choose from). */
export function fillOptions(state) {
  const form = $('#options');
  const select = form.elements.algorithm;
  const ran = state.result.options;
  const names = [...state.algorithms];
  if (!names.includes(ran.algorithm)) names.push(ran.algorithm);
  if (select.dataset.list !== names.join()) {
    select.replaceChildren(...names.map((a) => new Option(shortName(a), a)));
    select.dataset.list = names.join();
  }
  select.value = ran.algorithm;
  form.elements.depth.value = ran.depth ?? '';
  form.elements.strict.value = ran.strict ? '1' : '0';
}

/** The selected node's fields, only those its kind has. */
export function fillInspector(state, idOf) {
  const found = D.find(state.doc, state.selected);
  if (!found) return;
  const { node, parent, depth } = found;
  const panel = $('#inspector');
  $('[data-role=selected-id]').textContent = idOf(node.key);
  const leaf = !node.children;
  const chance = node.type === 'chance';
  const shown = {
    value: leaf, eval: !leaf, probability: parent?.type === 'chance',
    probabilities: chance, label: true, id: true, kind: true,
  };
  for (const [field, on] of Object.entries(shown)) $(`[data-for="${field}"]`, panel).hidden = !on;
  const kind = $('[data-edit=kind]', panel);
  const kinds = ['leaf', 'chance', ...D.playersOf(state.doc)];
  if (kind.dataset.list !== kinds.join()) {
    kind.replaceChildren(...kinds.map((k) => new Option(TEXT.kinds[k] || k, k)));
    kind.dataset.list = kinds.join();
  }
  kind.value = D.kindOf(state.doc, node, depth);
  const text = (v) => (v == null ? '' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v));
  $('[data-edit=value]', panel).value = text(node.value);
  $('[data-edit=eval]', panel).value = text(node.eval);
  $('[data-edit=probability]', panel).value = text(node.probability);
  $('[data-edit=probabilities]', panel).value = chance ? node.children.map((c) => text(c.probability)).join(' ') : '';
  $('[data-edit=label]', panel).value = node.label ?? '';
  $('[data-edit=id]', panel).value = node.id ?? '';
  $('[data-edit=id]', panel).placeholder = node.id == null ? TEXT.automatic(idOf(node.key)) : '';
  $('[data-action=collapse]').setAttribute('aria-pressed', String(state.collapsed.has(node.key)));
}

/** The notation and YAML boxes (a box being typed into is left alone). */
export function fillText(state) {
  const notation = $('[data-notation]');
  if (document.activeElement !== notation || !notation.dataset.dirty) notation.value = state.notation;
  delete notation.dataset.dirty;
  const yaml = $('[data-yaml]');
  if (state.yaml != null && (document.activeElement !== yaml || !yaml.dataset.dirty)) yaml.value = state.yaml;
  delete yaml.dataset.dirty;
  for (const e of document.querySelectorAll('[data-text-error]')) { e.hidden = true; e.textContent = ''; }
}
