// Operator page: polls GET /ops/v1/fleet and applies IP changes with PUT /ops/v1/ips/{ip}.
// The operator token lives in sessionStorage (this tab only) and travels only in the Authorization
// header: never in a URL, so it never reaches access logs or the browser history.
// DOM is updated in place (tiles keyed by IP) so that keyboard focus survives the live updates.
(function () {
  'use strict';

  const TOKEN_KEY = 'egress.operatorToken';
  const POLL_MS = 1000;
  const ACTIONS = [['ACTIVE', 'Activate'], ['DRAINING', 'Drain'], ['DISABLED', 'Disable']];

  const $ = (id) => document.getElementById(id);
  let timer = null;
  let pending = null; // {ip, status} awaiting confirmation
  let busy = false;
  let offline = false; // the status line shows a connection problem that the next good poll clears

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') node.className = v; else node.setAttribute(k, v === true ? '' : v);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function token() { return sessionStorage.getItem(TOKEN_KEY); }

  async function api(method, path, body) {
    const response = await fetch(path, {
      method,
      headers: Object.assign({ 'Authorization': 'Bearer ' + token(), 'Accept': 'application/json' },
        body ? { 'Content-Type': 'application/json' } : {}),
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      credentials: 'omit',
    });
    let json = null;
    try { json = await response.json(); } catch (e) { /* no body */ }
    return { status: response.status, json };
  }

  function ago(ms) {
    if (ms === null || ms === undefined) return 'never';
    if (ms < 1000) return ms + ' ms';
    if (ms < 120000) return Math.round(ms / 1000) + ' s';
    return Math.round(ms / 60000) + ' min';
  }

  // An instant as App writes it: ISO-8601 text, or epoch seconds.
  function millis(instant) {
    return typeof instant === 'number' ? instant * 1000 : Date.parse(instant);
  }

  function setStatus(text, bad) {
    const s = $('status');
    s.textContent = text;
    s.classList.toggle('bad', !!bad);
  }

  // ---- sign-in ------------------------------------------------------------------------------

  function showSignIn(message) {
    stop();
    $('fleet').hidden = true;
    $('sign-out').hidden = true;
    $('sign-in').hidden = false;
    $('summary').textContent = '';
    $('sign-in-error').textContent = message || '';
    $('token').value = '';
    $('token').focus();
  }

  function showFleet() {
    $('sign-in').hidden = true;
    $('fleet').hidden = false;
    $('sign-out').hidden = false;
    start();
  }

  $('sign-in-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = $('token').value.trim();
    $('token').value = '';
    if (!value) return;
    sessionStorage.setItem(TOKEN_KEY, value);
    const probe = await api('GET', '/ops/v1/fleet').catch(() => ({ status: 0 }));
    if (probe.status === 200) {
      showFleet();
      render(probe.json);
      $('ips-heading').focus();
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
      showSignIn(probe.status === 401 ? 'That token was not accepted.' : 'App did not answer (' + probe.status + ').');
    }
  });

  $('sign-out').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showSignIn('Signed out.');
  });

  // ---- polling ------------------------------------------------------------------------------

  function start() {
    stop();
    timer = setInterval(refresh, POLL_MS);
    refresh();
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  async function refresh() {
    try {
      const r = await api('GET', '/ops/v1/fleet');
      if (r.status === 401) { sessionStorage.removeItem(TOKEN_KEY); showSignIn('The token is no longer accepted.'); return; }
      if (r.status !== 200) { setStatus('App answered ' + r.status + '; showing the last view.', true); offline = true; return; }
      if (offline) { setStatus(''); offline = false; }
      render(r.json);
    } catch (e) {
      setStatus('App is not reachable; showing the last view.', true);
      offline = true;
    }
  }

  // ---- rendering ----------------------------------------------------------------------------

  function render(fleet) {
    $('summary').textContent = 'snapshot ' + fleet.generation + ' · confirmed ' + ago(fleet.snapshotAgeMillis)
      + ' ago' + (fleet.stale ? ' · STALE' : '') + ' · ' + fleet.borders.length + ' Borders · strategy '
      + fleet.strategy;
    renderProblems(fleet);
    renderTiles(fleet.ips);
    renderBorders(fleet.borders);
    renderDurable(fleet.durable, fleet.at);
  }

  // Durable delivery's last count (fleet-wide): absent when durable delivery is off.
  function renderDurable(durable, at) {
    $('durable-panel').hidden = !durable;
    if (!durable) return;
    const counted = millis(at) - millis(durable.countedAt); // both App's clock: no skew with the browser's
    $('durable-summary').textContent = 'counted ' + ago(Math.max(0, counted)) + ' ago'
      + (durable.oldestDue ? ' · oldest due webhook waiting ' + ago(durable.oldestDueAgeSeconds * 1000) : ' · nothing due')
      + (durable.complete ? '' : ' · more than the count reads: numbers are lower bounds');
    const rows = durable.tenants.map((t) => el('tr', { 'data-tenant': t.id },
      el('th', { scope: 'row' }, t.id), el('td', { class: 'due' }, String(t.due)), el('td', { class: 'dead' }, String(t.dead))));
    if (rows.length === 0) rows.push(el('tr', {}, el('td', { colspan: '3' }, 'No tenant has webhooks due or dead.')));
    $('durable').replaceChildren(...rows);
  }

  function renderProblems(fleet) {
    const items = [];
    if (fleet.stale) {
      items.push(el('p', { class: 'problem' }, 'Routing data is stale (confirmed ' + ago(fleet.snapshotAgeMillis)
        + ' ago, limit ' + ago(fleet.maxStalenessMillis) + '): dedicated traffic fails closed.'));
    }
    for (const t of fleet.tenantsWithoutUsableIp) {
      items.push(el('p', { class: 'problem' }, (t.dedicated ? 'Dedicated' : 'Shared') + ' tenant ', el('strong', {}, t.id),
        ' has no usable IP (' + t.reason + '; allowed: ' + t.ips.join(', ') + ')'));
    }
    for (const c of fleet.conflicts) {
      items.push(el('p', { class: 'problem' }, 'IP ', el('strong', {}, c.ip), ' is announced by several Borders: '
        + c.borders.join(', ')));
    }
    for (const r of fleet.rejected) {
      items.push(el('p', { class: 'problem' }, 'Rejected announcement (registry owner #' + r.owner + '): ' + r.reason));
    }
    if (fleet.tenantsFile && !fleet.tenantsFile.valid) {
      items.push(el('p', { class: 'problem' }, 'Tenants file invalid, last good policy kept: ' + fleet.tenantsFile.lastError));
    }
    if (items.length === 0) items.push(el('p', { class: 'ok' }, 'Nothing: every tenant has a usable IP, no conflicts, no rejected announcements.'));
    $('problems').replaceChildren(...items);
  }

  function tileId(ip) { return 'ip-' + ip.replace(/[^0-9a-zA-Z]/g, '-'); }

  function renderTiles(ips) {
    const list = $('ips');
    const seen = new Set();
    ips.forEach((ip, index) => {
      const id = tileId(ip.ip);
      seen.add(id);
      let tile = document.getElementById(id);
      if (!tile) {
        tile = createTile(ip.ip, id);
      }
      if (list.children[index] !== tile) list.insertBefore(tile, list.children[index] || null);
      updateTile(tile, ip);
    });
    for (const tile of Array.from(list.children)) {
      if (!seen.has(tile.id)) tile.remove();
    }
  }

  function createTile(ip, id) {
    const buttons = ACTIONS.map(([status, label]) => {
      const b = el('button', { type: 'button', 'data-action': status, 'aria-label': label + ' ' + ip }, label);
      b.addEventListener('click', () => ask(ip, status));
      return b;
    });
    return el('li', { id, class: 'tile', 'data-ip': ip, 'aria-labelledby': id + '-title' },
      el('h3', {}, el('span', { id: id + '-title' }, ip), el('span', { class: 'state' })),
      el('p', { class: 'meta tenants' }),
      el('ul', { class: 'routes' }),
      el('div', { class: 'actions' }, buttons));
  }

  function updateTile(tile, ip) {
    tile.className = 'tile ' + ip.status;
    tile.dataset.status = ip.status;
    tile.querySelector('.state').textContent = ip.status + (ip.conflict ? ' · CONFLICT' : '');
    const tenants = [];
    if (ip.dedicatedTenants.length) tenants.push('dedicated: ' + ip.dedicatedTenants.join(', '));
    if (ip.sharedPool) tenants.push('shared pool (' + ip.sharedTenants + ' tenant' + (ip.sharedTenants === 1 ? '' : 's') + ')');
    tile.querySelector('.tenants').textContent = tenants.length ? tenants.join(' · ') : 'no tenant uses it';
    const routes = ip.borders.map((b) => el('li', {},
      el('strong', {}, b.id), ' ' + b.status + (b.reason ? ' (withheld: ' + b.reason + ')' : '') + ' · breaker ' + b.breaker + (b.ejected ? ' · EJECTED' : '')
      + ' · in flight ' + b.inFlight + (b.tunnels ? ' (' + b.tunnels + ' tunnels)' : '') + ' · last min: ' + b.recentAttempts + ' calls, '
      + Math.round(b.recentErrorRate * 100) + '% failed'));
    if (routes.length === 0) routes.push(el('li', {}, 'no live Border announces it'));
    tile.querySelector('.routes').replaceChildren(...routes);
    for (const button of tile.querySelectorAll('button[data-action]')) {
      button.disabled = busy || ip.status === 'ABSENT'
        || ip.borders.every((b) => b.status === button.dataset.action);
    }
  }

  function renderBorders(borders) {
    $('borders').replaceChildren(...borders.map((b) => el('tr', { 'data-border': b.id },
      el('th', { scope: 'row' }, b.id), el('td', {}, b.endpoint), el('td', {}, String(b.generation)),
      el('td', {}, ago(b.announcementAgeMillis) + ' ago'), el('td', {}, b.breaker),
      el('td', {}, b.ejected ? 'EJECTED' : 'ok'),
      el('td', {}, b.ips.map((i) => i.ip + (i.bind && i.bind !== i.ip ? ' (bound as ' + i.bind + ')' : '') + ' ' + i.status + (i.reason ? ' (withheld: ' + i.reason + ')' : '')).join(', ')))));
  }

  // ---- actions ------------------------------------------------------------------------------

  function ask(ip, status) {
    pending = { ip, status, opener: document.activeElement };
    $('confirm-title').textContent = 'Set ' + ip + ' to ' + status + '?';
    $('confirm-text').textContent = status === 'ACTIVE'
      ? 'The IP takes new deliveries again on every Border that hosts it.'
      : status === 'DRAINING'
        ? 'The IP finishes in-flight deliveries and takes no new ones, on every Border that hosts it.'
        : 'The IP is taken out on every Border that hosts it.';
    $('confirm').showModal();
    $('confirm-cancel').focus();
  }

  $('confirm').addEventListener('close', async () => {
    const choice = $('confirm').returnValue;
    const action = pending;
    pending = null;
    if (action && action.opener && action.opener.focus) action.opener.focus();
    if (choice !== 'ok' || !action) return;
    busy = true;
    setStatus('Setting ' + action.ip + ' to ' + action.status + '…');
    try {
      const r = await api('PUT', '/ops/v1/ips/' + encodeURIComponent(action.ip), { status: action.status });
      if (r.status === 200) {
        setStatus(action.ip + ' is ' + action.status + ' on ' + r.json.appliedOn.join(' and ')
          + (r.json.conflict ? ' (announced by several Borders: applied to all)' : '') + '.');
      } else if (r.status === 401) {
        sessionStorage.removeItem(TOKEN_KEY); showSignIn('The token is no longer accepted.'); return;
      } else {
        const detail = r.json && r.json.detail ? r.json.detail : 'HTTP ' + r.status;
        const borders = r.json && r.json.borders
          ? ' — ' + r.json.borders.map((b) => b.id + ': ' + b.outcome + (b.detail ? ' (' + b.detail + ')' : '')).join('; ') : '';
        setStatus('Not confirmed: ' + detail + borders, true);
      }
    } catch (e) {
      setStatus('App is not reachable: the change may or may not have been applied.', true);
    } finally {
      busy = false;
      refresh();
    }
  });

  if (token()) showFleet(); else showSignIn('');
})();
