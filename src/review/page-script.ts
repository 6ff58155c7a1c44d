/**
 * The review page's script (inline, under the response's nonce): keyboard use, selection, and the
 * decisions sent to the server as JSON (same origin, the page's CSRF value in a header). What the
 * server answers is put on the page as text only (textContent), never as markup.
 */
export const PAGE_SCRIPT = `
(() => {
  'use strict';
  const csrf = document.body.dataset.csrf;
  const rows = Array.from(document.querySelectorAll('tr.row'));
  const note = document.getElementById('note');
  const status = document.getElementById('status');
  const acceptButton = document.getElementById('accept-selected');
  const rejectButton = document.getElementById('reject-selected');
  let current = -1;
  // One decision at a time: a second press while one is on its way would act on what the first leaves (the current row once the selection clears).
  let busy = false;
  // Whether the current row is one the reviewer moved to since the last decision on a selection: a second click on a toolbar button then decides nothing, rather than the row that happened to be current.
  let armed = true;
  // A note typed but not yet sent survives the filter, the pages and a reload of this tab (sessionStorage, this review's server only): it goes with the next decision.
  const noteKey = 'note:' + csrf;
  const keepNote = () => { try { if (note.value) sessionStorage.setItem(noteKey, note.value); else sessionStorage.removeItem(noteKey); } catch (error) { /* storage off: the note lives as long as the page */ } };
  try { if (!note.value) note.value = sessionStorage.getItem(noteKey) || ''; } catch (error) { /* as above */ }
  note.addEventListener('input', keepNote);

  const focusRow = (i) => {
    if (rows.length === 0) return;
    i = Math.max(0, Math.min(rows.length - 1, i));
    if (current >= 0) rows[current].classList.remove('current');
    current = i;
    rows[i].classList.add('current');
    armed = true;
    rows[i].focus();
    label();
  };
  // The row holding the focus is the current one: a key acts on the row the reviewer tabbed to, never on one highlighted elsewhere.
  const follow = (i) => {
    if (i === current) return;
    armed = true;
    if (current >= 0) rows[current].classList.remove('current');
    current = i;
    rows[i].classList.add('current');
    label();
  };
  const checkbox = (tr) => tr.querySelector('input.sel');
  const targets = () => {
    const chosen = rows.filter((tr) => checkbox(tr) && checkbox(tr).checked);
    if (chosen.length > 0) return chosen;
    return current >= 0 && armed ? [rows[current]] : [];
  };
  // The toolbar's buttons say what they act on: the selection, or the current row.
  const label = () => {
    const chosen = rows.filter((tr) => checkbox(tr) && checkbox(tr).checked);
    const what = chosen.length > 0 ? chosen.length + ' selected' : current >= 0 && armed && rows[current].dataset.payee !== '' ? 'line ' + rows[current].dataset.line : '';
    acceptButton.textContent = 'Accept (pay)' + (what ? ': ' + what : '');
    rejectButton.textContent = 'Reject (hold)' + (what ? ': ' + what : '');
  };
  const post = async (path, data) => {
    let res;
    try {
      res = await fetch(path, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-review-csrf': csrf },
        body: JSON.stringify(data),
      });
    } catch {
      throw new Error('no answer from vas-verify review (stopped, or Done pressed in another tab). Start it again and decide these rows on its new page');
    }
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(answer.error || 'the server answered ' + res.status);
    return answer;
  };
  const show = (answer, verdict) => {
    // The page now shows the payee's reviews up to this one: its rows (under any payee name) carry it.
    if (typeof answer.reviewed === 'number' && answer.payee !== undefined && answer.payee !== null) {
      for (const tr of rows) if (tr.dataset.payee === String(answer.payee)) tr.dataset.reviewed = String(answer.reviewed);
    }
    for (const tr of rows) {
      const same = tr.dataset.row === String(answer.row) || (answer.payee !== undefined && answer.payee !== null && tr.dataset.payee === String(answer.payee) && tr.dataset.nameKey === answer.nameKey);
      if (!same || !answer.standing) continue;
      const cell = tr.querySelector('.standing');
      cell.textContent = answer.standing.text;
      if (answer.standing.note) {
        const div = document.createElement('div');
        div.className = 'note';
        div.textContent = '\\u201c' + answer.standing.note + '\\u201d';
        cell.appendChild(div);
      }
      cell.dataset.decision = answer.standing.decision;
    }
    const tr = rows.find((r) => r.dataset.row === String(answer.row));
    if (!tr) return;
    const msg = tr.querySelector('.msg');
    msg.dataset.ok = String(answer.ok);
    msg.textContent = answer.ok ? (verdict === 'ACCEPTED' ? 'accepted' : 'rejected') : answer.message;
  };
  const decide = async (verdict, chosen) => {
    chosen = chosen.filter((tr) => tr.dataset.payee !== '');
    if (chosen.length === 0) { status.textContent = 'Nothing to decide: move to a row (j/k) or select rows (x).'; return; }
    if (busy) { status.textContent = 'Wait: the last decision is still being recorded.'; return; }
    busy = true;
    for (const tr of chosen) { const msg = tr.querySelector('.msg'); delete msg.dataset.ok; msg.textContent = ''; }
    status.textContent = (verdict === 'ACCEPTED' ? 'Accepting ' : 'Rejecting ') + chosen.length + ' row(s)…';
    try {
      const answer = await post('/api/decide', { verdict, rows: chosen.map((tr) => ({ row: Number(tr.dataset.row), seen: tr.dataset.seen, reviewed: Number(tr.dataset.reviewed) })), note: note.value });
      for (const one of answer.results) show(one, verdict);
      const done = answer.results.filter((one) => one.ok).length;
      status.textContent = done + ' of ' + answer.results.length + ' row(s) ' + (verdict === 'ACCEPTED' ? 'accepted' : 'rejected') + '.';
      const selection = chosen.some((tr) => checkbox(tr) && checkbox(tr).checked);
      for (const tr of chosen) { const box = checkbox(tr); if (box) { box.checked = false; tr.classList.remove('selected'); } }
      if (selection) armed = false;
      // A note belongs to the decision it was written for: the next one starts without it.
      if (done > 0) { note.value = ''; keepNote(); }
    } catch (error) {
      // Said on every row it was for as well as at the top: the reviewer may be far down the list.
      status.textContent = 'Not recorded: ' + error.message + '.';
      for (const tr of chosen) { const msg = tr.querySelector('.msg'); msg.dataset.ok = 'false'; msg.textContent = 'not recorded: ' + error.message; }
    } finally {
      busy = false;
      label();
    }
  };
  const finish = async () => {
    try {
      const answer = await post('/api/done', {});
      const main = document.querySelector('main');
      main.textContent = '';
      const p = document.createElement('p');
      p.className = 'finished';
      p.dataset.testid = 'finished';
      p.textContent = 'Review finished: ' + answer.recorded + ' decision(s) recorded by this session. You can close this tab.';
      main.appendChild(p);
      document.getElementById('done').disabled = true;
    } catch (error) {
      status.textContent = 'Could not finish: ' + error.message;
    }
  };

  // The second click of a double-click is not a second decision (detail counts the clicks; 0 for Enter or Space).
  acceptButton.addEventListener('click', (event) => { if (event.detail <= 1) decide('ACCEPTED', targets()); });
  rejectButton.addEventListener('click', (event) => { if (event.detail <= 1) decide('REJECTED', targets()); });
  document.getElementById('done').addEventListener('click', finish);
  for (const id of ['decision', 'reason']) document.getElementById(id).addEventListener('change', (event) => event.target.form.submit());
  rows.forEach((tr, i) => {
    tr.addEventListener('focusin', () => follow(i));
    tr.addEventListener('click', (event) => {
      const button = event.target.closest('button');
      if (event.target.closest('button, input')) follow(i); else focusRow(i);
      if (event.detail > 1) return;
      if (button && button.classList.contains('accept')) decide('ACCEPTED', [tr]);
      if (button && button.classList.contains('reject')) decide('REJECTED', [tr]);
    });
    const box = checkbox(tr);
    if (box) box.addEventListener('change', () => { tr.classList.toggle('selected', box.checked); label(); });
  });
  note.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' || event.key === 'Enter') { event.preventDefault(); focusRow(Math.max(current, 0)); }
  });
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const inField = event.target instanceof HTMLInputElement && event.target.type !== 'checkbox' || event.target instanceof HTMLSelectElement;
    if (inField) { if (event.key === 'Escape') focusRow(Math.max(current, 0)); return; }
    const go = (href) => { const link = document.getElementById(href); if (link) link.click(); };
    const keys = {
      j: () => focusRow(current + 1), ArrowDown: () => focusRow(current + 1),
      k: () => focusRow(current - 1), ArrowUp: () => focusRow(current - 1),
      x: () => { const box = current >= 0 && checkbox(rows[current]); if (box && !box.disabled) { box.checked = !box.checked; rows[current].classList.toggle('selected', box.checked); label(); } },
      a: () => decide('ACCEPTED', targets()),
      r: () => decide('REJECTED', targets()),
      n: () => note.focus(),
      '/': () => document.getElementById('reason').focus(),
      ']': () => go('next'),
      '[': () => go('prev'),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    // A key held down repeats: one decision per press.
    if (event.repeat && (event.key === 'a' || event.key === 'r')) return;
    action();
  });
  if (rows.length > 0) focusRow(0);
})();
`;
