// The practice chooser /practice: shows this browser's progress, and keeps
// the random-tree form's choices for next time.

import { t } from '../core/i18n.js';
import { load } from './practice-progress.js';

const KEY = 'practice-form-v1';
const form = document.querySelector('.random-form');
const line = document.querySelector('[data-role=progress]');

const attempts = Object.entries(load().attempts);
if (attempts.length) {
  const solved = attempts.filter(([, a]) => a.solved).length;
  line.textContent = attempts.length === 1
    ? t('In this browser you have tried 1 tree and solved {solved}.', { solved })
    : t('In this browser you have tried {n} trees and solved {solved}.', { n: attempts.length, solved });
  for (const [k, a] of attempts) {
    const [tree] = k.split('|');
    const li = document.querySelector(`li[data-tree="${CSS.escape(tree)}"]`);
    if (li && a.solved) li.classList.add('solved');
  }
}

try {
  const saved = JSON.parse(localStorage.getItem(KEY) || '{}');
  for (const [name, value] of Object.entries(saved)) {
    const field = form.elements[name];
    if (!field || name === 'seed') continue;
    if (field.type === 'checkbox') field.checked = !!value;
    else field.value = value;
  }
} catch { /* a fresh form then */ }

form.addEventListener('submit', () => {
  const data = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    data[el.name] = el.type === 'checkbox' ? el.checked : el.value;
  }
  try { localStorage.setItem(KEY, JSON.stringify(data)); } catch { /* fine */ }
  // Leave out empty fields so the address stays short and shareable.
  for (const el of form.elements) if (el.name && el.type !== 'checkbox' && !el.value) el.disabled = true;
  setTimeout(() => { for (const el of form.elements) el.disabled = false; }, 0);
});
