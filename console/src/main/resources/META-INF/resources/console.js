// Lahar console: pages over the console's /api, kept live by the change stream (/api/events).
// No framework and nothing fetched from elsewhere: a small DOM builder and one page at a time.
'use strict';

const main = document.getElementById('main');
const state = { summary: { readOnly: true }, page: null, params: {}, timer: null, inFlight: false, again: false };

// ---- DOM and formatting helpers -------------------------------------------------------------

/** h('td', {class: 'num'}, 'text', child): an element; strings become text nodes (never HTML). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// Each phase: a family (its colour) and a glyph, so it reads without colour too.
const PHASES = {
  Pending: ['wait', '◷'], Inqueue: ['wait', '◔'], Waiting: ['wait', '◌'], Restarting: ['wait', '↻'],
  Running: ['run', '▶'], Completing: ['run', '▷'],
  Completed: ['ok', '✓'], Succeeded: ['ok', '✓'], Succeed: ['ok', '✓'],
  Failed: ['bad', '✗'], Undecodable: ['bad', '⚠'], Unknown: ['bad', '?'],
  Aborting: ['stop', '■'], Aborted: ['stop', '■'], Terminating: ['stop', '⊘'], Terminated: ['stop', '⊘'],
};
function phaseFamily(p) { return (PHASES[p] || ['stop', '•'])[0]; }
function phase(p) {
  const [family, glyph] = PHASES[p] || ['stop', '•'];
  return h('span', { class: 'phase ' + family, 'data-phase': p }, h('span', { 'aria-hidden': 'true' }, glyph), p || '—');
}

function time(ms) { return ms ? new Date(ms).toLocaleString() : '—'; }
function duration(ms) {
  if (ms === null || ms === undefined || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  if (s < 60) return s + 's';
  const m = Math.floor(s / 60);
  if (m < 60) return m + 'm' + String(s % 60).padStart(2, '0') + 's';
  const hrs = Math.floor(m / 60);
  if (hrs < 48) return hrs + 'h' + String(m % 60).padStart(2, '0') + 'm';
  return Math.floor(hrs / 24) + 'd' + (hrs % 24) + 'h';
}
function age(ms) { return ms ? duration(Date.now() - ms) : '—'; }
function jobLink(key) {
  const [ns, ...rest] = key.split('/');
  return h('a', { href: '#/jobs/' + encodeURIComponent(ns) + '/' + encodeURIComponent(rest.join('/')) }, key);
}
function recordLink(position) {
  // topic/partition@offset
  const m = /^(.*)\/(\d+)@(\d+)$/.exec(position || '');
  if (!m) return h('span', {}, position || '—');
  return h('a', { href: '#/records/' + encodeURIComponent(m[1]) + '/' + m[2] + '/' + m[3], class: 'mono' }, position);
}

async function api(path, options) {
  const res = await fetch('api/' + path, Object.assign({ headers: { Accept: 'application/json' } }, options || {}));
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = { error: text }; }
  if (!res.ok) {
    const err = new Error((body && (body.error || body.message)) || res.status + ' ' + res.statusText);
    err.status = res.status; err.body = body;
    throw err;
  }
  return body;
}

// ---- Routing and live updates ---------------------------------------------------------------

const PAGES = {};

function route() {
  const parts = (location.hash.replace(/^#\/?/, '') || 'jobs').split('?')[0].split('/').map(decodeURIComponent);
  const query = new URLSearchParams((location.hash.split('?')[1]) || '');
  let page = parts[0];
  if (page === 'jobs' && parts.length >= 3) page = 'job';
  if (page === 'flows' && parts.length >= 3) page = 'flow';
  if (page === 'records' && parts.length >= 4) page = 'record';
  if (!PAGES[page]) page = 'jobs';
  state.page = PAGES[page];
  state.params = { parts, query };
  document.querySelectorAll('header nav a').forEach(a => {
    const current = a.dataset.page === parts[0];
    if (current) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  main.replaceChildren();
  state.page.init(main, state.params);
  refresh();
}

/** Reloads the current page's data; one request at a time, a change meanwhile asks for one more. */
async function refresh() {
  if (state.inFlight) { state.again = true; return; }
  state.inFlight = true;
  const page = state.page;
  try {
    await page.load(state.params);
  } catch (e) {
    if (page === state.page) page.failed ? page.failed(e) : showError(e);
  } finally {
    state.inFlight = false;
    if (state.again) { state.again = false; setTimeout(refresh, 150); }
  }
}

function showError(e) {
  let box = document.getElementById('page-error');
  if (!box) { box = h('p', { id: 'page-error', class: 'notice error', role: 'alert' }); main.prepend(box); }
  box.textContent = e.message;
}

function connect() {
  const live = document.getElementById('live');
  const source = new EventSource('api/events');
  source.addEventListener('hello', () => { live.textContent = '● live'; loadSummary(); refresh(); });
  source.addEventListener('change', ev => {
    const changes = JSON.parse(ev.data);
    if (state.page && state.page.wants(changes, state.params)) refresh();
  });
  source.onerror = () => { live.textContent = '○ reconnecting…'; };
}

async function loadSummary() {
  try {
    state.summary = await api('summary');
    const mode = document.getElementById('mode');
    mode.textContent = state.summary.readOnly ? 'read-only' : 'actions enabled';
    mode.title = state.summary.readOnly ? 'No API token is configured: abort, resume, restart and delete are disabled.' : '';
  } catch (e) { /* the next hello tries again */ }
}

function touches(changes, kind, key) {
  const keys = changes[kind];
  return !!keys && (key === undefined || keys.includes('*') || keys.includes(key));
}

// ---- Jobs -----------------------------------------------------------------------------------

const PAGE_SIZE = 50;
PAGES.jobs = {
  init(root, { query }) {
    this.filters = { namespace: query.get('namespace') || '', queue: query.get('queue') || '', phase: query.get('phase') || '',
      q: query.get('q') || '', sort: query.get('sort') || '', offset: 0 };
    this.seen = new Map();
    const f = this.filters;
    const select = (name, label) => h('label', {}, label, h('select', { name, 'aria-label': label, onchange: e => this.set(name, e.target.value) },
      h('option', { value: '' }, 'any')));
    this.selects = { namespace: select('namespace', 'Namespace'), queue: select('queue', 'Queue'), phase: select('phase', 'Phase') };
    const search = h('input', { type: 'search', name: 'q', value: f.q, placeholder: 'name, reason, message…', 'aria-label': 'Search' });
    let debounce;
    search.addEventListener('input', () => { clearTimeout(debounce); debounce = setTimeout(() => this.set('q', search.value), 200); });
    this.count = h('span', { class: 'muted', id: 'job-count', role: 'status' });
    this.body = h('tbody');
    this.pager = h('div', { class: 'pager' });
    const sortable = (label, key, cls) => h('th', { class: cls, scope: 'col' },
      h('button', { onclick: () => this.set('sort', f.sort === key ? '' : key), title: 'sort by ' + label }, label));
    root.append(h('h1', {}, 'Jobs'),
      h('div', { class: 'filters' }, Object.values(this.selects), h('label', {}, 'Search', search), this.count),
      h('table', { id: 'jobs' }, h('thead', {}, h('tr', {},
        sortable('Job', 'name'), sortable('Phase', 'phase'), sortable('Queue', 'queue'),
        h('th', { scope: 'col' }, 'Tasks (pending / running / succeeded / failed of replicas)'),
        sortable('Age', 'oldest', 'num'), sortable('Retries', 'retries', 'num'), h('th', { scope: 'col' }, 'Reason'))), this.body),
      this.pager);
  },
  set(name, value) {
    this.filters[name] = value;
    if (name !== 'offset') this.filters.offset = 0;
    refresh();
  },
  wants(changes) { return touches(changes, 'jobs'); },
  async load() {
    const f = this.filters;
    const q = new URLSearchParams({ offset: f.offset, limit: PAGE_SIZE });
    for (const k of ['namespace', 'queue', 'phase', 'q', 'sort']) if (f[k]) q.set(k, f[k]);
    const page = await api('jobs?' + q);
    if (state.page !== this) return;
    for (const [k, values] of [['namespace', page.namespaces], ['queue', page.queues], ['phase', page.phases]]) {
      const sel = this.selects[k].querySelector('select');
      const wanted = ['', ...Object.keys(values)];
      if (f[k] && !wanted.includes(f[k])) wanted.push(f[k]);
      sel.replaceChildren(...wanted.map(v => h('option', { value: v, selected: v === f[k] },
        v === '' ? 'any' : v + (values[v] !== undefined ? ' (' + values[v] + ')' : ''))));
    }
    this.count.textContent = page.matched + ' of ' + page.total + ' jobs';
    const rows = page.items.map(r => {
      const before = this.seen.get(r.key);
      const changed = before !== undefined && before !== r.updated;
      this.seen.set(r.key, r.updated);
      const tasks = r.error ? '—' : `${r.pending} / ${r.running} / ${r.succeeded} / ${r.failed} of ${r.replicas}`;
      const why = r.error ? h('span', { class: 'error' }, r.error) : (r.message || r.reason || '');
      return h('tr', { class: changed ? 'flash' : null, 'data-key': r.key, 'data-phase': r.phase },
        h('td', {}, jobLink(r.key), r.flow ? h('div', { class: 'small muted' }, 'flow ' + r.flow) : null),
        h('td', {}, phase(r.phase)), h('td', {}, r.queue || '—'), h('td', { class: 'mono' }, tasks),
        h('td', { class: 'num' }, age(r.created)),
        h('td', { class: 'num' }, r.retryCount + (r.maxRetry !== null && r.maxRetry !== undefined ? ' / ' + r.maxRetry : '')),
        h('td', { class: 'wrap small' }, why));
    });
    this.body.replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'No job matches.'))]));
    const last = Math.min(page.matched, f.offset + PAGE_SIZE);
    this.pager.replaceChildren(
      h('button', { disabled: f.offset === 0, onclick: () => this.set('offset', Math.max(0, f.offset - PAGE_SIZE)) }, '‹ Previous'),
      h('span', {}, page.matched ? `${f.offset + 1}–${last} of ${page.matched}` : ''),
      h('button', { disabled: last >= page.matched, onclick: () => this.set('offset', f.offset + PAGE_SIZE) }, 'Next ›'));
    if (!this.painted) { this.painted = true; performance.mark('jobs-rendered'); }
  },
};

// ---- Job ------------------------------------------------------------------------------------

PAGES.job = {
  init(root, { parts }) {
    this.ns = parts[1]; this.name = parts.slice(2).join('/'); this.key = this.ns + '/' + this.name;
    this.root = root;
    this.said = '';
    root.append(h('p', {}, h('a', { href: '#/jobs' }, '‹ Jobs')), h('h1', {}, this.key), h('div', { id: 'job' }, 'Loading…'));
  },
  wants(changes) { return touches(changes, 'jobs', this.key); },
  failed(e) {
    document.getElementById('job').replaceChildren(h('p', { class: 'notice' },
      e.status === 404 ? 'No status of this job on lahar.job-status (it may have been deleted).' : e.message));
  },
  async load() {
    const j = await api('jobs/' + encodeURIComponent(this.ns) + '/' + encodeURIComponent(this.name));
    if (state.page !== this) return;
    const r = j.row;
    const out = [];
    out.push(h('div', { class: 'actions' }, phase(r.phase), this.actions(r)));
    if (r.error) out.push(h('p', { class: 'notice error', role: 'alert' }, 'Undecodable record: ' + r.error));
    const pg = j.podGroup;
    out.push(h('div', { class: 'grid', id: 'job-summary' },
      field('Queue', r.queue), field('Reason', r.reason || '—'), field('Message', r.message || '—'),
      field('Min available', r.minAvailable), field('Replicas', r.replicas), field('Version', r.version),
      field('Retries', r.retryCount + (r.maxRetry != null ? ' of ' + r.maxRetry : '')),
      field('Created', time(r.created)), field('Last transition', time(r.lastTransition)),
      field('Running', r.runningDuration != null ? duration(r.runningDuration) + ' (finished)' : r.runningSince ? 'for ' + duration(Date.now() - r.runningSince) : '—'),
      field('Pod group', pg ? pg.phase + ' (minMember ' + pg.minMember + ')' : '—'),
      field('JobFlow', r.flow || '—')));
    if (pg && pg.conditions.length) {
      out.push(h('h2', {}, 'Pod group conditions'), table(['Type', 'Status', 'Reason', 'Message', 'Time'],
        pg.conditions.map(c => [c.type, c.status, c.reason || '—', c.message || '—', time(c.time)])));
    }
    if (j.status) {
      const tasks = Object.entries(j.status.taskStatusCount);
      out.push(h('h2', {}, 'Tasks'), table(['Task', 'Pods by phase'],
        tasks.map(([t, phases]) => [t, Object.entries(phases).map(([p, n]) => p + ' ' + n).join(', ') || '—'])));
    }
    out.push(h('h2', {}, 'Pods (' + j.pods.length + ')'), table(['Pod', 'Task', 'Phase', 'Node', 'Restarts', 'Exit codes', 'Reason', 'Version', 'Seen'],
      j.pods.map(p => [p.pod, p.task + '[' + p.index + ']', phase(p.deleted ? 'Terminated' : p.phase), p.node || 'unbound',
        { num: p.restarts }, p.exitCodes.join(', ') || '—', p.reason || (p.message || '—'), p.version, time(p.time)]), 'pods'));
    if (j.status && j.status.conditions.length) {
      out.push(h('h2', {}, 'Conditions'), table(['Phase', 'Entered'], j.status.conditions.map(c => [phase(c.status), time(c.time)])));
    }
    out.push(h('h2', {}, 'Transitions (' + j.transitions.length + ')'),
      h('p', { class: 'small muted' }, 'Each transition with the event, action and policy that caused it, and the input record (topic/partition@offset) — what lahar replay --explain prints.'),
      h('ol', { class: 'timeline', id: 'timeline' }, j.transitions.slice().reverse().map(t =>
        h('li', { 'data-to': t.to },
          h('div', {}, h('b', {}, time(t.time)), ' ', t.from ? phase(t.from) : h('span', { class: 'muted' }, '(new)'), ' → ', phase(t.to)),
          h('div', {}, 'event ', h('b', {}, t.event), t.action ? [' · action ', h('b', {}, t.action)] : '',
            t.policy ? [' · policy ', h('code', {}, t.policy)] : ' · no policy (a command or the default)'),
          (t.reason || t.message) ? h('div', { class: 'why' }, [t.reason, t.message].filter(Boolean).join(': ')) : null,
          h('div', { class: 'why' }, 'input ', recordLink(t.source), ' · version ', t.version, ' · retries ', t.retryCount,
            ' · written at ', recordLink(t.position))))));
    if (j.manifest) {
      let pretty = j.manifest;
      try { pretty = JSON.stringify(JSON.parse(j.manifest), null, 2); } catch (e) { /* shown as it came */ }
      out.push(h('details', {}, h('summary', {}, 'Admitted manifest'), h('pre', { class: 'mono' }, pretty)));
    }
    document.getElementById('job').replaceChildren(...out);
  },
  actions(r) {
    const ro = state.summary.readOnly;
    const act = (label, action, cls, confirmText) => h('button', {
      class: cls, disabled: ro || !!r.error, title: ro ? 'read-only: no API token configured' : label,
      onclick: async () => {
        if (confirmText && !confirm(confirmText)) return;
        // Kept on the page object: the status line is drawn again with the job at every change.
        const say = text => { this.said = text; document.getElementById('action-status').textContent = text; };
        say(label + '…');
        try {
          const path = 'jobs/' + encodeURIComponent(this.ns) + '/' + encodeURIComponent(this.name) + (action ? '/actions/' + action : '');
          await api(path, { method: action ? 'POST' : 'DELETE', headers: { 'X-Lahar-Console': '1', Accept: 'application/json' } });
          say(label + ': accepted');
        } catch (e) {
          const reasons = e.body && e.body.violations && e.body.violations.length ? ' — ' + e.body.violations.map(x => (x.path ? x.path + ': ' : '') + x.message).join('; ') : '';
          say(label + ' refused (' + e.status + '): ' + e.message + reasons);
        }
      } }, label);
    return [act('Abort', 'AbortJob', ''), act('Resume', 'ResumeJob', ''), act('Restart', 'RestartJob', ''),
      act('Delete', null, 'danger', 'Delete job ' + this.key + '?'),
      h('span', { id: 'action-status', role: 'status', class: 'small' }, ro ? 'Read-only: actions need an API token.' : this.said)];
  },
};

function field(label, value) { return h('div', {}, h('b', {}, label), value === null || value === undefined ? '—' : value); }

/** A table from rows of cells (a string, a node, or {num: n} for a right-aligned number). */
function table(headers, rows, id) {
  return h('table', { id }, h('thead', {}, h('tr', {}, headers.map(x => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows.length ? rows.map(cells => h('tr', {}, cells.map(c =>
      c !== null && typeof c === 'object' && 'num' in c ? h('td', { class: 'num' }, c.num) : h('td', { class: 'wrap' }, c))))
      : h('tr', {}, h('td', { colspan: headers.length, class: 'muted' }, 'None.'))));
}

// ---- Queues ---------------------------------------------------------------------------------

PAGES.queues = {
  init(root) {
    root.append(h('h1', {}, 'Queues'),
      h('p', { class: 'legend' }, 'Bars: allocated (striped fill, red past deserved); ▏ deserved (solid line); ┆ guarantee (dashed line); the bar ends at the capability, or at the largest amount when the queue has none.'),
      h('div', { id: 'queues' }, 'Loading…'));
  },
  wants(changes) { return touches(changes, 'queues'); },
  async load() {
    const rows = await api('queues');
    if (state.page !== this) return;
    const byParent = new Map();
    const names = new Set(rows.map(q => q.name));
    for (const q of rows) {
      const parent = q.parent && names.has(q.parent) ? q.parent : (q.name === 'root' ? null : (names.has('root') ? 'root' : null));
      if (!byParent.has(parent)) byParent.set(parent, []);
      byParent.get(parent).push(q);
    }
    const tree = parent => {
      const children = byParent.get(parent) || [];
      return children.length ? h('ul', { class: 'tree' }, children.map(q => h('li', {}, queueCard(q), tree(q.name)))) : null;
    };
    document.getElementById('queues').replaceChildren(tree(null) || h('p', { class: 'muted' }, 'No queue on lahar.queues or lahar.queue-status yet.'));
  },
};

function queueCard(q) {
  const resources = [...new Set([...Object.keys(q.allocated), ...Object.keys(q.deserved), ...Object.keys(q.capability), ...Object.keys(q.guarantee)])].sort();
  const groups = Object.entries(q.podGroups).filter(([, n]) => n > 0).map(([p, n]) => p + ' ' + n).join(' · ') || 'none';
  const jobs = Object.entries(q.jobs).map(([p, n]) => p + ' ' + n).join(' · ') || 'none';
  const unsched = Object.entries(q.unschedulable).map(([r, n]) => r + ' ' + n).join(' · ');
  return h('div', { class: 'card', 'data-queue': q.name },
    h('h3', { class: 'node-label' }, q.name, ' ', h('span', { class: 'phase ' + (q.state === 'Open' ? 'ok' : 'stop') }, q.state === 'Open' ? '● ' : '■ ', q.state || 'no status')),
    h('div', { class: 'small' }, 'weight ', h('b', {}, q.weight ?? '—'), ' · priority ', q.priority ?? '—',
      ' · reclaimable ', q.reclaimable === null ? '—' : (q.reclaimable ? 'yes' : 'no'), q.configured ? '' : ' · (no lahar.queues record)'),
    h('div', { class: 'small' }, 'pod groups: ', groups),
    h('div', { class: 'small' }, 'jobs: ', jobs),
    unsched ? h('div', { class: 'small error' }, '⚠ unschedulable: ', unsched) : null,
    resources.map(r => resourceBar(r, q.allocated[r], q.deserved[r], q.capability[r], q.guarantee[r])));
}

function resourceBar(name, allocated, deserved, capability, guarantee) {
  const v = a => (a ? a.value : 0);
  const max = capability ? v(capability) : Math.max(v(allocated), v(deserved), v(guarantee)) || 1;
  const pct = x => Math.max(0, Math.min(100, (x / max) * 100)) + '%';
  const over = deserved && v(allocated) > v(deserved);
  const text = 'allocated ' + (allocated ? allocated.text : '0') + (deserved ? ' · deserved ' + deserved.text : '')
    + (guarantee ? ' · guarantee ' + guarantee.text : '') + (capability ? ' · capability ' + capability.text : ' · no capability');
  return h('div', { class: 'res', 'data-resource': name },
    h('b', {}, name),
    h('div', { class: 'bar', role: 'img', 'aria-label': name + ': ' + text, 'data-allocated': v(allocated) },
      h('div', { class: 'fill' + (over ? ' over' : ''), style: 'width:' + pct(v(allocated)) }),
      deserved ? h('div', { class: 'mark', style: 'left:' + pct(v(deserved)) }) : null,
      guarantee ? h('div', { class: 'mark guarantee', style: 'left:' + pct(v(guarantee)) }) : null),
    h('span', {}), h('span', { class: 'small' + (over ? ' error' : '') }, (over ? '▲ over deserved · ' : '') + text));
}

// ---- Flows ----------------------------------------------------------------------------------

PAGES.flows = {
  init(root) { root.append(h('h1', {}, 'Flows'), h('div', { id: 'flows' }, 'Loading…')); },
  wants(changes) { return touches(changes, 'flows'); },
  async load() {
    const rows = await api('flows');
    if (state.page !== this) return;
    document.getElementById('flows').replaceChildren(table(['Flow', 'Phase', 'Jobs', 'Pending', 'Running', 'Completed', 'Failed', 'Terminated', 'Other', 'Updated'],
      rows.map(f => [f.error ? f.key : h('a', { href: '#/flows/' + encodeURIComponent(f.namespace) + '/' + encodeURIComponent(f.name) }, f.key),
        f.error ? h('span', {}, phase(f.phase), ' ', h('span', { class: 'error small' }, f.error)) : phase(f.phase),
        { num: f.jobs }, { num: f.pending }, { num: f.running }, { num: f.completed }, { num: f.failed }, { num: f.terminated }, { num: f.unknown }, time(f.updated)]), 'flows-table'));
  },
};

PAGES.flow = {
  init(root, { parts }) {
    this.ns = parts[1]; this.name = parts.slice(2).join('/'); this.key = this.ns + '/' + this.name;
    root.append(h('p', {}, h('a', { href: '#/flows' }, '‹ Flows')), h('h1', {}, this.key), h('div', { id: 'flow' }, 'Loading…'));
  },
  wants(changes) { return touches(changes, 'flows', this.key); },
  failed(e) { document.getElementById('flow').replaceChildren(h('p', { class: 'notice' }, e.status === 404 ? 'No status of this flow on lahar.flow-status.' : e.message)); },
  async load() {
    const f = await api('flows/' + encodeURIComponent(this.ns) + '/' + encodeURIComponent(this.name));
    if (state.page !== this) return;
    document.getElementById('flow').replaceChildren(
      h('div', { class: 'actions' }, phase(f.row.phase), h('span', { class: 'small' }, f.row.jobs + ' jobs created')),
      h('h2', {}, 'DAG'), dag(f.nodes),
      h('p', { class: 'legend' }, 'Arrows go from a job to the jobs that depend on it. Each box names its phase; the border repeats it: solid = running or done, dashed = waiting, thick = failed, dotted = stopped.'),
      h('h2', {}, 'Jobs and their histories'),
      table(['Entry', 'Job', 'Phase', 'Depends on', 'Created', 'Ran for', 'Restarts', 'History', 'Message'],
        f.nodes.map(n => [n.name, jobLink(this.ns + '/' + n.job), phase(n.phase),
          n.targets.length ? n.targets.join(', ') + (n.strategy ? ' (' + n.strategy + ')' : '') : '—',
          time(n.created), n.runningDuration != null ? duration(n.runningDuration) : '—', { num: n.restartCount },
          n.histories.map(x => x.state + ' ' + new Date(x.start).toLocaleTimeString() + (x.end ? '–' + new Date(x.end).toLocaleTimeString() : '–now')).join(' → ') || '—',
          n.message || '—']), 'flow-jobs'));
  },
};

/** The flow as a layered graph: a job's layer is one more than its deepest target's. */
function dag(nodes) {
  const byName = new Map(nodes.map(n => [n.name, n]));
  const layer = new Map();
  const depth = (n, seen) => {
    if (layer.has(n.name)) return layer.get(n.name);
    if (seen.has(n.name)) return 0;
    seen.add(n.name);
    const d = n.targets.filter(t => byName.has(t)).reduce((m, t) => Math.max(m, depth(byName.get(t), seen) + 1), 0);
    layer.set(n.name, d);
    return d;
  };
  nodes.forEach(n => depth(n, new Set()));
  const columns = [];
  nodes.forEach(n => { const l = layer.get(n.name); (columns[l] = columns[l] || []).push(n); });
  const W = 170, H = 52, GX = 70, GY = 26;
  const pos = new Map();
  columns.forEach((col, x) => col.forEach((n, y) => pos.set(n.name, { x: 20 + x * (W + GX), y: 20 + y * (H + GY) })));
  const width = 40 + columns.length * (W + GX), height = 40 + Math.max(1, ...columns.map(c => c.length)) * (H + GY);
  const edges = [];
  nodes.forEach(n => n.targets.filter(t => pos.has(t)).forEach(t => {
    const a = pos.get(t), b = pos.get(n.name);
    const x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x - 6, y2 = b.y + H / 2, mx = (x1 + x2) / 2;
    edges.push(svg('path', { class: 'edge', d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`, 'marker-end': 'url(#arrow)' }));
  }));
  const boxes = nodes.map(n => {
    const p = pos.get(n.name);
    const glyph = (PHASES[n.phase] || ['', '•'])[1];
    return svg('g', { class: phaseFamily(n.phase), 'data-node': n.name, 'data-phase': n.phase, transform: `translate(${p.x},${p.y})` },
      svg('title', {}, n.job + ': ' + n.phase),
      svg('rect', { width: W, height: H, rx: 6 }),
      svg('text', { x: 10, y: 20, 'font-weight': 600 }, n.name.length > 22 ? n.name.slice(0, 21) + '…' : n.name),
      svg('text', { x: 10, y: 40 }, glyph + ' ' + n.phase + (n.restartCount ? ' · ↻' + n.restartCount : '')));
  });
  return h('div', { class: 'dag' }, svg('svg', { width, height, role: 'img', 'aria-label': 'JobFlow graph', id: 'dag' },
    svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto' },
      svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#6b7480' }))), edges, boxes));
}

// ---- Nodes ----------------------------------------------------------------------------------

PAGES.nodes = {
  init(root) {
    root.append(h('h1', {}, 'Nodes'),
      h('p', { class: 'legend' }, 'Allocated = the requests of the pods bound to the node and not finished (from lahar.pod-events and the jobs\' manifests), against the node\'s allocatable.'),
      h('div', { id: 'nodes' }, 'Loading…'));
  },
  wants(changes) { return touches(changes, 'nodes') || touches(changes, 'jobs'); },
  async load() {
    const rows = await api('nodes');
    if (state.page !== this) return;
    document.getElementById('nodes').replaceChildren(rows.length ? table(['Node', 'Ready', 'Schedulable', 'cpu', 'memory', 'pods', 'Other resources', 'Taints', 'Pods on it'],
      rows.map(n => [n.name + (n.known ? '' : ' (no lahar.nodes record)'),
        n.ready ? '✓ Ready' : '✗ NotReady', n.unschedulable ? '⊘ cordoned' : 'yes',
        usage(n, 'cpu'), usage(n, 'memory'), podsUsage(n),
        Object.keys(n.allocatable).filter(r => !['cpu', 'memory', 'pods'].includes(r)).map(r => usage(n, r)),
        n.taints.join(', ') || '—',
        n.pods.length ? h('details', {}, h('summary', {}, n.pods.length + ' pods'), h('ul', { class: 'small' },
          n.pods.map(p => h('li', {}, jobLink(p.job), ' ', p.pod, ' ', phase(p.phase))))) : '0']), 'nodes-table')
      : h('p', { class: 'muted' }, 'No node on lahar.nodes yet.'));
  },
};

function usage(n, r) {
  const a = n.allocated[r], cap = n.allocatable[r];
  if (!a && !cap) return '—';
  const used = a ? a.value : 0, max = cap ? cap.value : used || 1;
  const pct = Math.min(100, (used / max) * 100);
  const text = (a ? a.text : '0') + ' of ' + (cap ? cap.text : '?') + ' (' + Math.round(pct) + '%)';
  return h('div', { 'data-resource': r, style: 'min-width:150px' }, h('div', { class: 'small' }, (r !== 'cpu' && r !== 'memory' ? r + ': ' : '') + text),
    h('div', { class: 'bar', role: 'img', 'aria-label': r + ' ' + text }, h('div', { class: 'fill' + (used > max ? ' over' : ''), style: 'width:' + pct + '%' })));
}

function podsUsage(n) {
  const cap = n.allocatable.pods;
  return h('div', { style: 'min-width:90px' }, n.pods.length + ' of ' + (cap ? cap.text : '?'));
}

// ---- Dead letters ---------------------------------------------------------------------------

PAGES.deadletters = {
  init(root) {
    root.append(h('h1', {}, 'Dead letters'),
      h('p', { class: 'legend' }, 'The latest records of lahar.dead-letters: records a Lahar processor could not decode or process, with its reason. Below them, records the console itself could not decode.'),
      h('div', { id: 'deadletters' }, 'Loading…'));
  },
  wants(changes) { return touches(changes, 'deadletters'); },
  async load() {
    const d = await api('deadletters');
    if (state.page !== this) return;
    document.getElementById('deadletters').replaceChildren(
      table(['Time', 'Record', 'Processor', 'Reason', 'Key', 'Value bytes'],
        d.letters.map(l => [time(l.timestamp), recordLink(l.topic + '/' + l.partition + '@' + l.offset), l.processor,
          h('span', { class: 'error' }, '⚠ ', l.error), l.key === null ? '—' : h('code', {}, l.key), { num: l.valueBytes }]), 'letters'),
      h('h2', {}, 'Records the console could not decode (' + d.undecodable.length + ')'),
      table(['Time', 'Record', 'Key', 'Why the console could not decode it', 'Dead-letter reason'],
        d.undecodable.map(u => [time(u.timestamp), h('span', { class: 'mono' }, u.topic + '/' + u.partition + '@' + u.offset),
          u.key === null ? '—' : h('code', {}, u.key), u.error, u.deadLetter || '— (no processor dead-lettered it)']), 'undecodable'));
  },
};

// ---- One record -----------------------------------------------------------------------------

PAGES.record = {
  init(root, { parts }) {
    this.topic = parts[1]; this.partition = parts[2]; this.offset = parts[3];
    root.append(h('p', {}, h('a', { href: 'javascript:history.back()' }, '‹ Back')),
      h('h1', {}, this.topic + '/' + this.partition + '@' + this.offset), h('div', { id: 'record' }, 'Loading…'));
  },
  wants() { return false; },
  failed(e) { document.getElementById('record').replaceChildren(h('p', { class: 'notice' }, e.message)); },
  async load() {
    const r = await api('records/' + encodeURIComponent(this.topic) + '/' + this.partition + '/' + this.offset);
    if (state.page !== this) return;
    document.getElementById('record').replaceChildren(h('div', { class: 'grid' },
      field('Key', r.key === null ? '—' : r.key), field('Timestamp', time(r.timestamp)), field('Schema', r.schema || '—')),
      r.error ? h('p', { class: 'notice error' }, 'Undecodable: ' + r.error) : null,
      h('pre', { class: 'mono', id: 'record-value' }, r.value === null ? '(tombstone: no value)' : JSON.stringify(r.value, null, 2)));
  },
};

window.addEventListener('hashchange', route);
loadSummary();
route();
connect();
