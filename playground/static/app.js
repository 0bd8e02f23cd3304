// The playground's page: plain JavaScript, no framework. Every answer is
// computed by the WebAssembly build of the Go packages (see
// internal/play), which runs in a Web Worker: a long computation (a large
// grammar's proofs) never freezes the page, and Stop ends it.
//
// The worker is made from a Blob, and the WebAssembly comes base64 in a
// script (playground-wasm.js, with wasm_exec.js from the Go distribution):
// Chromium lets no file:// page fetch a file or start a worker from one,
// and the page must work from file:// as from any static host.
"use strict";

(() => {
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- engine

// workerMain runs in the worker, after wasm_exec.js. Its first message is
// the compiled module; every later one is a call.
function workerMain() {
  let started = null;
  self.onmessage = (e) => {
    const m = e.data;
    if (m.module) {
      const go = new Go();
      started = WebAssembly.instantiate(m.module, go.importObject).then((inst) => {
        go.run(inst).then(() => self.postMessage({ exited: true }));
        self.postMessage({ ready: true });
      }, (err) => self.postMessage({ failed: String(err) }));
      return;
    }
    let answer;
    try {
      answer = self.playgroundCall(m.method, m.request);
    } catch (err) {
      answer = JSON.stringify({ error: "the engine failed: " + String(err) });
    }
    self.postMessage({ id: m.id, answer });
  };
}

class Engine {
  constructor(module) {
    this.module = module;
    this.nextID = 1;
    this.waiting = new Map();
    this.start();
  }
  start() {
    const src = globalThis.playgroundWasmExec + "\n;(" + workerMain.toString() + ")();\n";
    const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
    this.worker = new Worker(url);
    URL.revokeObjectURL(url);
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        const m = e.data;
        if (m.ready) { resolve(); return; }
        if (m.failed) { reject(new Error(m.failed)); return; }
        if (m.exited) { this.restart("the engine ended (out of memory, or a fatal error of the Go runtime) and was restarted"); return; }
        const w = this.waiting.get(m.id);
        if (!w) return;
        this.waiting.delete(m.id);
        let a;
        try { a = JSON.parse(m.answer); } catch (err) { w.reject(new Error("bad answer: " + err)); return; }
        if (a.error !== undefined) w.reject(new Error(a.error)); else w.resolve(a.result);
      };
      this.worker.onerror = (e) => { e.preventDefault(); reject(new Error(e.message || "worker error")); this.restart("the engine failed: " + (e.message || "worker error")); };
    });
    this.worker.postMessage({ module: this.module });
  }
  // restart ends the worker, and with it whatever it computes, rejecting
  // every call still waiting.
  restart(reason) {
    this.worker.terminate();
    for (const w of this.waiting.values()) w.reject(new Error(reason));
    this.waiting.clear();
    this.start();
  }
  async call(method, request) {
    await this.ready;
    const id = this.nextID++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, request: JSON.stringify(request) });
    });
  }
}

// Channel runs one kind of request at a time, keeping only the latest
// request that arrives meanwhile: typing never queues stale work.
class Channel {
  constructor(engine, method, busyBox, onResult, onError) {
    Object.assign(this, { engine, method, busyBox, onResult, onError });
    this.running = false;
    this.pending = null;
    this.timer = null;
  }
  // stop ends the computation under way, and drops the one waiting: the
  // user asked for nothing more. The answer shown is the error.
  stop(reason) {
    this.pending = null;
    this.engine.restart(reason);
  }
  send(request) {
    this.pending = request;
    if (!this.running) this.next();
  }
  async next() {
    if (this.pending === null) return;
    const req = this.pending;
    this.pending = null;
    this.running = true;
    // Show the busy line only when the wait is noticeable.
    this.timer = setTimeout(() => { this.busyBox.hidden = false; }, 300);
    try {
      const res = await this.engine.call(this.method, req);
      if (this.pending === null) this.onResult(res, req);
    } catch (err) {
      if (this.pending === null) this.onError(err, req);
    } finally {
      clearTimeout(this.timer);
      this.busyBox.hidden = true;
      this.running = false;
      this.next();
    }
  }
}

// ----------------------------------------------------------------- utils

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

// quote shows a string as Go's %q would (JSON's quoting is close enough,
// and shows control characters and the empty string unambiguously).
function quote(s) { return JSON.stringify(s); }

function debounce(f, ms) {
  let t = null;
  return (...args) => { clearTimeout(t); t = setTimeout(() => f(...args), ms); };
}

function number(n) { return n.toLocaleString("en-US"); }

// ------------------------------------------------------------------ tabs

function selectTab(name) {
  for (const t of ["abnf", "uri"]) {
    $("tab-" + t).setAttribute("aria-selected", String(t === name));
    $("panel-" + t).hidden = t !== name;
  }
  setHash(name);
}

// The fragment names the tab, and for the URI tab what it shows, so that
// a link reopens it: #uri?u=…&base=…&grammar=…&rule=…&nonstrict=1.
function setHash(tab) {
  if (!info) return; // not before boot has read it
  let h = "#" + tab;
  if (tab === "uri" && info) {
    const q = new URLSearchParams({ u: $("uri-input").value, base: $("uri-base").value });
    if ($("uri-grammar").value !== "rfc3986") q.set("grammar", $("uri-grammar").value);
    const s = info.syntaxes.find((s) => s.name === $("uri-grammar").value);
    if (s && $("uri-rule").value !== s.default) q.set("rule", $("uri-rule").value);
    if ($("uri-nonstrict").checked) q.set("nonstrict", "1");
    h += "?" + q.toString();
  }
  if (location.hash !== h) history.replaceState(null, "", h);
}

function hashState() {
  const h = location.hash.slice(1);
  const i = h.indexOf("?");
  return { tab: i < 0 ? h : h.slice(0, i), params: new URLSearchParams(i < 0 ? "" : h.slice(i + 1)) };
}

// -------------------------------------------------------------- ABNF tab

let info = null;        // the engine's Info
let lastPeg = null;     // the translation of lastPegKey
let lastPegKey = "";
let abnfChannel = null;

function grammarSources() {
  const s = $("grammar-source");
  s.replaceChildren();
  s.append(el("option", { value: "custom", text: "Your grammar (paste below)" }));
  const rfc = el("optgroup", { label: "This project's grammars" });
  const titles = { rfc3986: "RFC 3986 Appendix A", rfc6874: "RFC 6874 zone IDs (on Appendix A)", rfc3987: "RFC 3987 IRIs (on Appendix A)" };
  for (const g of info.grammars) rfc.append(el("option", { value: "embedded:" + g.name, text: titles[g.name] || g.name }));
  s.append(rfc);
  const ex = el("optgroup", { label: "Examples" });
  for (const e of (globalThis.playgroundExamples || [])) ex.append(el("option", { value: "example:" + e.file, text: e.file + (e.note ? " — " + e.note : "") }));
  s.append(ex);
}

function loadSource(value) {
  const text = $("grammar-text");
  let start = "", base = false, octets = false, inputs = null, body = null, name = "";
  if (value.startsWith("embedded:")) {
    const g = info.grammars.find((g) => "embedded:" + g.name === value);
    body = g.text;
    name = g.file;
    base = g.name !== "rfc3986";
    start = g.name === "rfc3987" ? "IRI-reference" : "URI-reference";
    inputs = g.name === "rfc6874" ? "http://[fe80::1%25eth0]/\nhttp://[fe80::1%eth0]/\n" :
      g.name === "rfc3987" ? "http://例え.jp/引き\nhttp://a/\u{E000}\nhttp://a/?\u{E000}\n" :
      "http://user@example.com:8080/p?q#f\n//[v7.x]/\nhttp://a b/\n";
  } else if (value.startsWith("example:")) {
    const e = globalThis.playgroundExamples.find((e) => "example:" + e.file === value);
    body = e.text;
    name = e.file;
    base = e.base;
    octets = e.octets;
    start = e.start[0] || "";
    inputs = "";
    wantSamples = 3;
  }
  if (body === null) return;
  text.value = body;
  text.dataset.name = name;
  $("grammar-base").checked = base;
  $("grammar-octets").checked = octets;
  if (inputs !== null) {
    $("grammar-inputs").value = inputs;
    $("grammar-quoted").checked = false;
  }
  wantStart = start;
  runGrammar();
}

let wantStart = "";
let wantSamples = 0; // samples to add to the inputs on the next answer

function grammarRequest() {
  const text = $("grammar-text");
  const req = {
    base: $("grammar-base").checked ? ["rfc3986"] : [],
    name: text.dataset.name || "",
    text: text.value,
    octets: $("grammar-octets").checked,
    start: wantStart,
    inputs: $("grammar-inputs").value,
    quoted: $("grammar-quoted").checked,
    fullBudget: $("grammar-full").checked,
  };
  const key = JSON.stringify([req.base, req.name, req.text, req.octets, req.start, req.fullBudget]);
  req.peg = key !== lastPegKey || lastPeg === null;
  if (wantSamples) {
    req.samples = wantSamples;
    req.seed = Math.floor(Math.random() * 2 ** 32);
    wantSamples = 0;
  }
  req.key = key;
  return req;
}

function runGrammar() {
  if (abnfChannel) abnfChannel.send(grammarRequest());
}

function posText(p) { return p.file ? `${p.file}:${p.line}:${p.col}` : ""; }

// selectPos selects, in the grammar text, the position of a message.
function selectPos(p) {
  if (!p.inText) return;
  const t = $("grammar-text");
  t.focus();
  let end = p.offset;
  while (end < t.value.length && !/[\s=\/()\[\]]/.test(t.value[end])) end++;
  t.setSelectionRange(p.offset, Math.max(end, p.offset + 1));
}

function messageItem(m) {
  const li = el("li", { class: m.severity });
  if (m.pos.file) {
    const where = el(m.pos.inText ? "a" : "span", { class: "pos", text: posText(m.pos) });
    if (m.pos.inText) { where.href = "#"; where.addEventListener("click", (e) => { e.preventDefault(); selectPos(m.pos); }); }
    li.append(where, ": ");
  }
  li.append(el("span", { class: "sev", text: m.severity }), ": ", m.msg);
  return li;
}

function showGrammar(res, req) {
  if (req.peg) {
    lastPeg = res.peg || null;
    if (lastPeg) lastPeg.millis = res.millis.peg;
    lastPegKey = lastPeg ? req.key : "";
  } else {
    res.peg = lastPeg;
  }
  const summary = $("abnf-summary");
  summary.className = "summary";
  const errBox = $("abnf-errors-box");
  errBox.hidden = res.errors.length === 0;
  $("abnf-errors").replaceChildren(...res.errors.map(messageItem));
  const show = res.errors.length === 0;
  for (const id of ["abnf-check-box", "abnf-match-box", "abnf-dfa-box", "abnf-peg-box"]) $(id).hidden = true;
  if (!show) {
    summary.classList.add("bad");
    summary.textContent = `${res.errors.length} error${res.errors.length === 1 ? "" : "s"}: the grammar does not read`;
    fillStart([], "");
    return;
  }
  const own = res.rules.filter((r) => !r.core).length;
  const nerr = res.problems.filter((p) => p.severity === "error").length;
  summary.textContent = `${own} rules and ${res.rules.length - own} core rules read in ${res.millis.read.toFixed(1)} ms` +
    (nerr ? `; ${nerr} error${nerr === 1 ? "" : "s"} found by the analysis` : "");
  if (nerr) summary.classList.add("bad");

  // gen check
  $("abnf-check-box").hidden = false;
  const roots = $("abnf-roots");
  roots.replaceChildren(el("span", { text: "Possible start rules (no rule references them): " }));
  res.rules.filter((r) => r.root).forEach((r, i) => {
    if (i) roots.append(", ");
    roots.append(el("code", { text: r.name }), " ", regularTag(res, r.regular));
  });
  if (!res.roots.length) roots.append(el("em", { text: "none (every rule is referenced)" }));
  const probs = $("abnf-problems");
  probs.replaceChildren(...(res.problems.length ? res.problems.map(messageItem) : [el("li", { class: "ok", text: "no problems" })]));
  $("abnf-rules-summary").textContent = `Rules (${res.rules.length})`;
  const rows = [el("tr", {}, el("th", { text: "rule" }), el("th", { text: "defined at" }), el("th", { text: "" }))];
  for (const r of res.rules) {
    const tags = [...(r.tags || [])];
    if (res.regularKnown) tags.push(r.regular ? "regular" : "not regular");
    if (r.root) tags.push("root");
    const a = el(r.pos.inText ? "a" : "span", { text: posText(r.pos) });
    if (r.pos.inText) { a.href = "#"; a.addEventListener("click", (e) => { e.preventDefault(); selectPos(r.pos); }); }
    rows.push(el("tr", {}, el("td", {}, el("code", { text: r.name })), el("td", {}, a), el("td", { class: "dim", text: tags.join("; ") })));
  }
  $("abnf-rules").replaceChildren(...rows);
  fillStart(res.rules, res.start);
  if (!res.clean) return;
  if (res.samples && res.samples.length) addSamples(res.samples);
  if (res.sampleErr) $("abnf-summary").append(el("div", { class: "warning", text: "samples: " + res.sampleErr }));

  $("grammar-start-kind").replaceWith(regularTag(res, res.regular, "grammar-start-kind"));

  // gen match
  $("abnf-match-box").hidden = false;
  const v = res.verdicts || [];
  const n = v.filter((x) => x.match).length;
  $("abnf-match-note").textContent = v.length ?
    `${n} of ${v.length} input${v.length === 1 ? "" : "s"} match ${res.start} (${res.millis.match.toFixed(1)} ms)` + (res.inputErr ? "; " + res.inputErr : "") :
    (res.inputErr || `Type inputs on the left: each line is matched against ${res.start}.`);
  $("abnf-verdicts").replaceChildren(...v.map((x) => {
    const verdict = x.err ? "error" : x.match ? "match" : "no-match";
    return el("li", { class: verdict, "data-verdict": verdict },
      el("span", { class: "mark", text: x.err ? "error" : x.match ? "✓ match" : "✗ no match" }), " ",
      el("code", { text: quote(x.input) }), x.err ? " — " + x.err : "");
  }));

  // gen dfa
  const dfa = $("abnf-dfa");
  $("abnf-dfa-box").hidden = false;
  if (res.dfa && !res.dfa.err) {
    const d = res.dfa;
    dfa.replaceChildren(el("p", {}, el("code", { text: d.rule }), ": ",
      el("strong", { id: "abnf-dfa-states", text: `${number(d.states)} states` }), " in the minimal DFA over bytes, " +
      `${number(d.classes)} byte classes; NFA ${number(d.nfaStates)} states, ${number(d.dfaStates)} after subset construction` +
      (d.recursive && d.recursive.length ? `; regular recursion compiled as jumps: ${d.recursive.join(", ")}` : "") +
      ` (${res.millis.dfa.toFixed(1)} ms)`));
  } else if (res.dfa) {
    dfa.replaceChildren(el("p", { class: "bad", text: res.dfa.err }));
  } else if (res.dfaErr) {
    dfa.replaceChildren(el("p", { class: "bad", text: res.dfaErr }));
  } else {
    dfa.replaceChildren(el("p", { text: `${res.start} reaches self-embedding recursion, so its language need not be regular: gen dfa refuses it (the PEG back end takes it).` }));
  }

  // gen peg -report
  $("abnf-peg-box").hidden = false;
  showPeg(res.peg, res);
}

// addSamples appends samples to the inputs, switching them to quoted
// lines when a sample holds a line break (HTTP messages, email).
function addSamples(samples) {
  const t = $("grammar-inputs"), q = $("grammar-quoted");
  if (!q.checked && samples.some((s) => !s.oneLine)) {
    q.checked = true;
    // JSON's quoting of a line is a Go double-quoted string.
    t.value = splitInputs(t.value).map((l) => JSON.stringify(l)).join("\n");
  }
  const lines = samples.map((s) => q.checked ? s.quoted : s.raw);
  t.value = (t.value && !t.value.endsWith("\n") ? t.value + "\n" : t.value) + lines.join("\n") + "\n";
  runGrammar();
}

function splitInputs(text) {
  if (text === "") return [];
  return text.replace(/\n$/, "").split("\n");
}

function regularTag(res, regular, id) {
  const t = !res.regularKnown ? ["", "regular?"] : regular ? ["regular", "regular"] : ["nonregular", "not regular"];
  const e = el("span", { class: "tag " + t[0], text: t[1] });
  if (id) e.id = id;
  if (!res.regularKnown) e.title = res.dfaErr || "";
  return e;
}

function fillStart(rules, start) {
  const s = $("grammar-start");
  const cur = start || s.value;
  s.replaceChildren();
  const roots = rules.filter((r) => r.root), others = rules.filter((r) => !r.root);
  if (roots.length) s.append(el("optgroup", { label: "possible start rules" }, ...roots.map((r) => el("option", { value: r.name, text: r.name }))));
  if (others.length) s.append(el("optgroup", { label: "other rules" }, ...others.map((r) => el("option", { value: r.name, text: r.name }))));
  s.value = cur;
  if (!rules.length) $("grammar-start-kind").textContent = "";
}

const kindTitles = {
  reorder: "reordered", guard: "guarded (one character)", "exact-guard": "guarded (exact continuation)",
  fallback: "settled at parse time by the exact recognizer", order: "order-sensitive choices", proven: "proven exact as emitted",
};

function showPeg(p, res) {
  const box = $("abnf-peg");
  if (!p) { box.replaceChildren(el("p", { class: "dim", text: "…" })); return; }
  if (p.err) { box.replaceChildren(el("p", { class: "bad", text: p.err })); return; }
  const parts = [];
  parts.push(el("p", { id: "abnf-peg-summary" },
    `${number(p.proven)} decisions proven, ${number(p.guarded)} guarded, ${number(p.fallbacks)} by fallback to the exact recognizer; ` +
    `${number(p.rules)} PEG rules (${number(p.variants)} context variants), ${number(p.guards)} exact guards; ` +
    `${number(p.work)} search steps` + (p.millis !== undefined ? ` (${p.millis.toFixed(0)} ms)` : "")));
  for (const s of p.starts) parts.push(el("p", { class: "dim" }, el("code", { text: s.rule }), ` → ${s.entry}: ${s.mode}`));
  for (const w of p.warnings) parts.push(el("p", { class: "warning", text: "warning: " + w }));
  const order = ["reorder", "guard", "exact-guard", "fallback", "order", "proven"];
  for (const kind of order) {
    const items = p.decisions.filter((d) => d.kind === kind);
    if (!items.length) continue;
    const list = el("ul", { class: "items" }, ...items.map(pegItem));
    const d = el("details", { class: "kind-" + kind }, el("summary", { text: `${kindTitles[kind]} (${items.length})` }), list);
    if (kind !== "proven") d.open = true;
    parts.push(d);
  }
  parts.push(el("details", {}, el("summary", { text: `shape rewrites (${p.rewrites.length})` }), el("ul", { class: "items" }, ...p.rewrites.map(pegItem))));
  parts.push(el("details", {}, el("summary", { text: "the report as gen peg -report prints it" }), el("pre", { class: "report", text: p.text })));
  parts.push(el("details", {}, el("summary", { text: "the PEG (pigeon grammar)" }), el("pre", { class: "report", text: p.peg })));
  parts.push(el("p", { class: "dim small", text: `Search budgets: ${number(p.inlineWork)} steps per inlined start rule, ${number(p.totalWork)} in all (gen peg -inline-work, -total-work)` +
    (p.inlineWork < info.limits.defaultInlineWork ? `, below gen peg's ${number(info.limits.defaultInlineWork)} and ${number(info.limits.defaultTotalWork)} unless you tick "full search budgets"` : "") +
    `. A spent budget costs proofs, never exactness: the decisions left unproven are settled by the exact recognizer.` }));
  box.replaceChildren(...parts);
}

function pegItem(it) {
  const li = el("li", {});
  const where = el(it.pos.inText ? "a" : "span", { class: "pos", text: posText(it.pos) });
  if (it.pos.inText) { where.href = "#"; where.addEventListener("click", (e) => { e.preventDefault(); selectPos(it.pos); }); }
  li.append(where, " ", el("code", { text: it.rule }), ": ", it.msg);
  if (it.count > 1) li.append(el("span", { class: "dim", text: ` [${it.count} contexts]` }));
  if (it.example) li.append(el("div", { class: "example" }, "example input: ", el("code", { text: quote(it.example) })));
  if (it.witness) li.append(el("div", { class: "example" }, `witness (${it.start || "start rule"}): `, el("code", { text: quote(it.witness) })));
  return li;
}

// --------------------------------------------------------------- URI tab

let uriChannel = null;

function fillURISelectors() {
  const g = $("uri-grammar");
  g.replaceChildren(...info.syntaxes.map((s) => el("option", { value: s.name, text: s.name })));
  g.value = "rfc3986";
  fillURIRules();
}

function fillURIRules(rule) {
  const s = info.syntaxes.find((s) => s.name === $("uri-grammar").value);
  const r = $("uri-rule");
  const others = s.rules.filter((n) => !s.uriRules.includes(n));
  r.replaceChildren(
    el("optgroup", { label: "URI rules" }, ...s.uriRules.map((n) => el("option", { value: n, text: n }))),
    el("optgroup", { label: "other rules" }, ...others.map((n) => el("option", { value: n, text: n }))));
  r.value = rule || s.default;
}

function runURI() {
  if (!uriChannel) return;
  if (!$("panel-uri").hidden) setHash("uri");
  uriChannel.send({
    grammar: $("uri-grammar").value, rule: $("uri-rule").value, input: $("uri-input").value,
    base: $("uri-base").value, nonStrict: $("uri-nonstrict").checked,
  });
}

function showURI(res) {
  const status = $("uri-status");
  for (const id of ["uri-error-box", "uri-components-box", "uri-levels-box", "uri-resolution-box", "uri-tree-box"]) $(id).hidden = true;
  if (res.problem) { status.className = "summary bad"; status.textContent = res.problem; return; }
  status.className = "summary " + (res.valid ? "good" : "bad");
  status.replaceChildren(el("code", { text: quote(res.input) }), res.valid ? " is a valid " : " is not a valid ", el("code", { text: res.rule }), ` (${res.grammar})`);
  if (!res.valid) {
    $("uri-error-box").hidden = false;
    const e = res.err;
    $("uri-caret").textContent = e.caret || "";
    const d = $("uri-error");
    d.replaceChildren(el("p", { id: "uri-error-message", text: e.message }));
    if (e.rule) d.append(el("p", {}, "failing rule: ", el("code", { id: "uri-error-rule", text: e.rule }), " (the rule the input was parsed as)", e.offset >= 0 ? `, at byte offset ${e.offset}` : ""));
    if (e.expected && e.expected.length) d.append(el("p", {}, "expected there: ", ...e.expected.flatMap((x, i) => [i ? ", " : "", el("code", { text: x })])));
    return;
  }
  if (res.isURI) {
    $("uri-components-box").hidden = false;
    const rows = [el("tr", {}, el("th", { text: "component" }), el("th", { text: "value" }), el("th", { text: "" }))];
    for (const c of res.components) {
      rows.push(el("tr", { "data-name": c.name, class: c.defined ? "" : "undefined" },
        el("th", { text: c.name }),
        el("td", {}, c.defined ? el("code", { text: quote(c.value) }) : el("span", { class: "dim", text: "—" })),
        el("td", { class: "dim", text: c.defined ? (c.value === "" ? "defined, empty" : "defined") : "undefined" })));
    }
    $("uri-components").replaceChildren(...rows);
    $("uri-hostkind").replaceChildren("host kind (§3.2.2): ", el("strong", { id: "uri-hostkind-value", text: res.hostKind || "none (no authority)" }));
    $("uri-iri").replaceChildren(...(res.uri ? ["as a URI (RFC 3987 §3.1): ", el("code", { text: res.uri })] : []));

    $("uri-levels-box").hidden = false;
    const lrows = [el("tr", {}, el("th", { text: "level" }), el("th", { text: "result" }))];
    lrows.push(el("tr", { "data-level": "none" }, el("td", {}, "simple string comparison ", el("span", { class: "dim", text: "§6.2.1" })), el("td", {}, el("code", { text: res.input }))));
    for (const l of res.levels) {
      lrows.push(el("tr", { "data-level": l.name, class: l.changed ? "changed" : "" },
        el("td", {}, "+ " + l.name + " ", el("span", { class: "dim", text: l.section })),
        el("td", {}, l.err ? el("span", { class: "bad", text: l.err }) : el("code", { text: l.result }), l.changed ? el("span", { class: "dim", text: " (changed)" }) : "")));
    }
    $("uri-levels").replaceChildren(...lrows);

    if (res.resolution) {
      $("uri-resolution-box").hidden = false;
      const r = res.resolution;
      $("uri-resolution").replaceChildren(
        el("p", {}, el("code", { text: quote(res.input) }), " against ", el("code", { text: quote(r.base) }), ` (${r.mode}) → `,
          r.err ? el("span", { class: "bad", id: "uri-resolution-result", text: r.err }) : el("strong", {}, el("code", { id: "uri-resolution-result", text: r.result }))));
    }
  }
  $("uri-tree-box").hidden = false;
  const tree = $("uri-tree");
  if (res.tree) tree.replaceChildren(el("ul", { class: "root" }, treeNode(res.tree)));
  else tree.replaceChildren(el("p", { class: "dim", text: res.treeErr || "no tree" }));
}

function treeNode(n) {
  const head = el("div", { class: "node" }, el("span", { class: "rule", text: n.rule }), " ",
    el("span", { class: "dim", text: `[${n.start},${n.end})` }), " ", el("code", { text: quote(n.text) }));
  const li = el("li", {}, head);
  if (n.kids && n.kids.length) li.append(el("ul", {}, ...n.kids.map(treeNode)));
  return li;
}

// ------------------------------------------------------------------ boot

async function boot() {
  const status = $("engine-status");
  try {
    if (typeof WebAssembly !== "object" || typeof Worker !== "function") throw new Error("this browser has no WebAssembly or no Web Workers");
    if (!globalThis.playgroundWasm || !globalThis.playgroundWasmExec) throw new Error("playground-wasm.js is missing: build the site with `go run .` in playground/");
    const t0 = performance.now();
    const bin = atob(globalThis.playgroundWasm);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const module = await WebAssembly.compile(bytes);
    const engine = new Engine(module);
    await engine.ready;
    info = await engine.call("info", {});
    status.textContent = `Engine ready (${(bytes.length / 1048576).toFixed(1)} MiB of WebAssembly, started in ${((performance.now() - t0) / 1000).toFixed(1)} s).`;
    status.classList.add("ready");
    document.body.dataset.ready = "true";

    abnfChannel = new Channel(engine, "grammar", $("abnf-busy"), showGrammar, (err) => {
      const s = $("abnf-summary");
      s.className = "summary bad";
      s.textContent = err.message;
    });
    uriChannel = new Channel(engine, "uri", $("uri-busy"), showURI, (err) => {
      const s = $("uri-status");
      s.className = "summary bad";
      s.textContent = err.message;
    });
    $("abnf-stop").addEventListener("click", () => abnfChannel.stop("stopped: the computation was ended, and the engine restarted (fewer or shorter inputs, or another start rule, may do)"));
    $("uri-stop").addEventListener("click", () => uriChannel.stop("stopped: the computation was ended, and the engine restarted"));

    grammarSources();
    fillURISelectors();
    const st = hashState();
    if (st.tab === "uri") {
      const p = st.params;
      if (p.has("grammar") && info.syntaxes.some((s) => s.name === p.get("grammar"))) { $("uri-grammar").value = p.get("grammar"); fillURIRules(); }
      if (p.has("rule")) fillURIRules(p.get("rule"));
      if (p.has("u")) $("uri-input").value = p.get("u");
      if (p.has("base")) $("uri-base").value = p.get("base");
      $("uri-nonstrict").checked = p.get("nonstrict") === "1";
    }
    $("grammar-source").value = "embedded:rfc3986";
    loadSource("embedded:rfc3986");
    runURI();
  } catch (err) {
    status.textContent = "The engine could not start: " + err.message;
    status.classList.add("bad");
    document.body.dataset.ready = "error";
  }
}

$("tab-abnf").addEventListener("click", () => selectTab("abnf"));
$("tab-uri").addEventListener("click", () => selectTab("uri"));
selectTab(hashState().tab === "uri" ? "uri" : "abnf");

$("grammar-source").addEventListener("change", (e) => loadSource(e.target.value));
const grammarEdited = debounce(() => runGrammar(), 250);
$("grammar-text").addEventListener("input", () => {
  // Edited, the text is no longer the file it was loaded from.
  $("grammar-source").value = "custom";
  delete $("grammar-text").dataset.name;
  grammarEdited();
});
$("grammar-inputs").addEventListener("input", debounce(() => runGrammar(), 150));
for (const id of ["grammar-base", "grammar-octets", "grammar-quoted", "grammar-full"]) $(id).addEventListener("change", () => runGrammar());
$("grammar-sample").addEventListener("click", () => { wantSamples = 4; runGrammar(); });
$("grammar-start").addEventListener("change", (e) => { wantStart = e.target.value; runGrammar(); });

const uriEdited = debounce(() => runURI(), 100);
for (const id of ["uri-input", "uri-base"]) $(id).addEventListener("input", uriEdited);
$("uri-nonstrict").addEventListener("change", () => runURI());
$("uri-rule").addEventListener("change", () => runURI());
$("uri-grammar").addEventListener("change", () => { fillURIRules(); runURI(); });
for (const a of document.querySelectorAll("[data-uri]")) {
  a.addEventListener("click", (e) => {
    e.preventDefault();
    if (a.dataset.grammar && a.dataset.grammar !== $("uri-grammar").value) { $("uri-grammar").value = a.dataset.grammar; fillURIRules(); }
    else if (!a.dataset.grammar && $("uri-grammar").value !== "rfc3986") { $("uri-grammar").value = "rfc3986"; fillURIRules(); }
    $("uri-input").value = a.dataset.uri;
    runURI();
  });
}

boot();
})();
