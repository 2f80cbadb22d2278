// Practice progress, kept in this browser only (localStorage; no account):
// per tree and mode, the best score, the number of checks and whether it
// was solved. Drafts of unfinished answer sheets are kept too, so a reload
// does not lose the student's work.
import { t } from '../core/i18n.js';


const KEY = 'practice-progress-v1';
const DRAFT = 'practice-draft-v1:';

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;   // private mode, a full quota, or a corrupt entry
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* progress is a nicety */ }
}

/** All progress: {attempts: {"<tree>|<mode>": {best, total, checks, solved, at}}}. */
export function load() {
  const p = read(KEY, null);
  return p && typeof p.attempts === 'object' ? p : { attempts: {} };
}

/** Record one check of `treeId` in `mode` with `right` of `total`. */
export function record(treeId, mode, right, total, solved) {
  const p = load();
  const k = `${treeId}|${mode}`;
  const a = p.attempts[k] || { best: 0, total, checks: 0, solved: false };
  a.checks += 1;
  a.total = total;
  a.best = Math.max(a.best, right);
  a.solved = a.solved || !!solved;
  a.at = Date.now();
  p.attempts[k] = a;
  write(KEY, p);
  return a;
}

/** One line for the page: this tree's record and the overall count. */
export function describe(treeId, mode) {
  const p = load();
  const all = Object.values(p.attempts);
  const solved = all.filter((a) => a.solved).length;
  const here = p.attempts[`${treeId}|${mode}`];
  let text = all.length === 1
    ? t('Solved so far in this browser: {solved} of 1 tree tried.', { solved })
    : t('Solved so far in this browser: {solved} of {n} trees tried.', { solved, n: all.length });
  if (here) {
    const best = here.checks === 1
      ? t('Best here: {best} of {total} (1 check).', here)
      : t('Best here: {best} of {total} ({checks} checks).', here);
    text = `${here.solved ? t('You have solved this one.') : best} ${text}`;
  }
  return all.length || here ? text : t('Your progress is kept in this browser; no account needed.');
}

export function loadDraft(treeId, mode) {
  return read(DRAFT + `${treeId}|${mode}`, null);
}

export function saveDraft(treeId, mode, draft) {
  write(DRAFT + `${treeId}|${mode}`, draft);
}

export function clearDraft(treeId, mode) {
  try { localStorage.removeItem(DRAFT + `${treeId}|${mode}`); } catch { /* ignore */ }
}
