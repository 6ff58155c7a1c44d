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
  let current = -1;

  const focusRow = (i) => {
    if (rows.length === 0) return;
    i = Math.max(0, Math.min(rows.length - 1, i));
    if (current >= 0) rows[current].classList.remove('current');
    current = i;
    rows[i].classList.add('current');
    rows[i].focus();
  };
  const checkbox = (tr) => tr.querySelector('input.sel');
  const targets = () => {
    const chosen = rows.filter((tr) => checkbox(tr) && checkbox(tr).checked);
    if (chosen.length > 0) return chosen;
    return current >= 0 ? [rows[current]] : [];
  };
  const post = async (path, data) => {
    const res = await fetch(path, {
      method: 'POST', credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-review-csrf': csrf },
      body: JSON.stringify(data),
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(answer.error || 'the server answered ' + res.status);
    return answer;
  };
  const show = (answer, verdict) => {
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
    status.textContent = (verdict === 'ACCEPTED' ? 'Accepting ' : 'Rejecting ') + chosen.length + ' row(s)…';
    try {
      const answer = await post('/api/decide', { verdict, rows: chosen.map((tr) => ({ row: Number(tr.dataset.row), seen: tr.dataset.seen })), note: note.value });
      for (const one of answer.results) show(one, verdict);
      const done = answer.results.filter((one) => one.ok).length;
      status.textContent = done + ' of ' + answer.results.length + ' row(s) ' + (verdict === 'ACCEPTED' ? 'accepted' : 'rejected') + '.';
      for (const tr of chosen) { const box = checkbox(tr); if (box) { box.checked = false; tr.classList.remove('selected'); } }
      // A note belongs to the decision it was written for: the next one starts without it.
      if (done > 0) note.value = '';
    } catch (error) {
      status.textContent = 'Not recorded: ' + error.message;
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

  document.getElementById('accept-selected').addEventListener('click', () => decide('ACCEPTED', targets()));
  document.getElementById('reject-selected').addEventListener('click', () => decide('REJECTED', targets()));
  document.getElementById('done').addEventListener('click', finish);
  for (const id of ['decision', 'reason']) document.getElementById(id).addEventListener('change', (event) => event.target.form.submit());
  rows.forEach((tr, i) => {
    tr.addEventListener('click', (event) => {
      focusRow(i);
      const button = event.target.closest('button');
      if (button && button.classList.contains('accept')) decide('ACCEPTED', [tr]);
      if (button && button.classList.contains('reject')) decide('REJECTED', [tr]);
    });
    const box = checkbox(tr);
    if (box) box.addEventListener('change', () => tr.classList.toggle('selected', box.checked));
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
      x: () => { const box = current >= 0 && checkbox(rows[current]); if (box && !box.disabled) { box.checked = !box.checked; rows[current].classList.toggle('selected', box.checked); } },
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
    action();
  });
  if (rows.length > 0) focusRow(0);
})();
`;
