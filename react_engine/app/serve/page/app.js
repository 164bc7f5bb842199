// The page over the react-engine API: open logs, ask, watch the steps arrive, approve or reject a side effect,
// read the answer with its mark, table, chart and evidence, and open past runs. Every text from the server or the
// logs is set as text (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { session: null, run: null, events: null, shownApproval: null };

function token() { return $("token").value || sessionStorage.getItem("react-engine-token") || ""; }

async function api(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token()) headers["Authorization"] = "Bearer " + token();
  const reply = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await reply.json().catch(() => ({ error: reply.statusText }));
  if (reply.status === 401) { $("token-box").hidden = false; $("token").focus(); }
  if (!reply.ok) throw new Error(data.error || reply.statusText);
  return data;
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function say(text) { $("status").textContent = text; }

async function openSession(event) {
  event.preventDefault();
  const logs = $("logs").value.split(/[\n,]+/).map((s) => s.trim()).filter(Boolean);
  $("open").disabled = true;
  $("session").textContent = "Loading…";
  try {
    const made = await api("POST", "/v1/sessions", { logs, planner: $("planner").value });
    state.session = made.id;
    $("session").textContent = `${made.logs.length} file(s) loaded · planner ${made.planner}` +
      (made.notice ? ` · ${made.notice}` : "") + ` · exports go to ${made.output_dir}`;
    $("question").disabled = false; $("ask").disabled = false;
    $("question").focus();
  } catch (error) {
    $("session").textContent = "Error: " + error.message;
  } finally {
    $("open").disabled = false;
  }
}

function stepItem(step) {
  const item = el("li");
  item.dataset.iteration = step.iteration;
  item.appendChild(el("span", step.action || `<${step.kind}>`, "action"));
  const params = step.params && Object.keys(step.params).length ? JSON.stringify(step.params) : "";
  if (params && step.action !== "finalize_answer") item.appendChild(el("code", " " + params));
  const what = step.ok ? step.observation : "✗ " + (step.error || "failed");
  item.appendChild(el("span", " → " + what, step.ok ? "" : "failed"));
  item.appendChild(el("span", ` · ${Math.round(step.duration_ms)} ms`, "muted"));
  return item;
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question || !state.session) return;
  $("steps").replaceChildren(); $("answer-section").hidden = true;
  $("ask").disabled = true; $("cancel").disabled = false;
  say("Asking…");
  try {
    const started = await api("POST", `/v1/sessions/${state.session}/ask`, { question });
    follow(started.run_id);
  } catch (error) {
    say("Error: " + error.message);
    $("ask").disabled = false; $("cancel").disabled = true;
  }
}

function follow(runId) {
  state.run = runId;
  if (state.events) state.events.close();
  const query = token() ? "?token=" + encodeURIComponent(token()) : "";
  const events = new EventSource(`/v1/runs/${runId}/events${query}`);
  state.events = events;
  events.addEventListener("status", () => say("Running…"));
  events.addEventListener("step", (e) => $("steps").appendChild(stepItem(JSON.parse(e.data))));
  events.addEventListener("approval", (e) => askApproval(JSON.parse(e.data)));
  events.addEventListener("approval_answered", (e) => {
    const d = JSON.parse(e.data);
    say(`${d.tool_name} ${d.approved ? "approved" : "rejected"}${d.reason ? " (" + d.reason + ")" : ""}; running…`);
    if ($("approval").open && state.shownApproval === d.request_id) $("approval").close("closed");
  });
  events.addEventListener("done", () => { events.close(); finished(runId); });
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) finished(runId); };
}

function askApproval(request) {
  state.shownApproval = request.request_id;
  say(`Waiting for your approval of ${request.tool_name}…`);
  $("approval-tool").textContent = request.tool_name;
  $("approval-description").textContent = request.tool_description;
  $("approval-parameters").textContent = JSON.stringify(request.parameters, null, 2);
  $("approval-reason").value = "";
  $("approval").returnValue = "";
  $("approval").showModal();
  $("reject").focus();
}

async function answerApproval() {
  const choice = $("approval").returnValue;
  if (choice !== "approve" && choice !== "reject") return;  // closed because it was answered elsewhere
  try {
    await api("POST", `/v1/sessions/${state.session}/approve`, {
      request_id: state.shownApproval, approved: choice === "approve", reason: $("approval-reason").value });
  } catch (error) {
    say("Error: " + error.message);
  }
}

async function cancel() {
  if (!state.run) return;
  try { await api("POST", `/v1/runs/${state.run}/cancel`, {}); say("Cancelling…"); }
  catch (error) { say("Error: " + error.message); }
}

async function finished(runId) {
  if (runId !== state.run) return;
  const run = await api("GET", `/v1/runs/${runId}?wait=10`).catch((error) => ({ error: error.message }));
  $("ask").disabled = false; $("cancel").disabled = true;
  if ($("approval").open) $("approval").close("closed");
  if (run.error) { say("Error: " + run.error); return; }
  if (run.status !== "done") { follow(runId); return; }
  say(`Done: ${run.stop_reason} · ${run.statistics.iterations} steps · ${run.statistics.execution_time_seconds.toFixed(2)} s`);
  showAnswer(run);
  $("question").focus();
}

function showAnswer(run) {
  $("answer-section").hidden = false;
  $("answer").textContent = run.answer;
  const mark = $("mark");
  if (run.partial) { mark.textContent = "⚠ partial and unverified"; mark.className = "unverified"; }
  else if (run.stop_reason !== "stop") { mark.textContent = "⚠ " + (run.hint || run.stop_reason); mark.className = "unverified"; }
  else if (run.verified) { mark.textContent = "✓ verified: every number was computed by a tool"; mark.className = "verified"; }
  else { mark.textContent = "⚠ unverified: " + (run.warnings[0] || "see the warnings"); mark.className = "unverified"; }
  const table = run.table;
  $("chart").replaceChildren(); $("table-box").replaceChildren();
  if (table && table.kind === "histogram" && table.rows.length) $("chart").appendChild(chart(table));
  else if (table && table.kind !== "value" && table.rows.length) $("table-box").appendChild(grid(table));
  $("evidence").replaceChildren(...run.evidence.map((e) => el("li", `${e.source}:${e.line} ${e.text}`)));
  $("evidence-title").hidden = run.evidence.length === 0;
}

function chart(table) {
  const box = el("div", null, "bars");
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", `${table.columns.join(" and ")}, ${table.rows.length} buckets`);
  const values = table.rows.map((row) => Number(row[row.length - 1]) || 0);
  const most = Math.max(1, ...values);
  table.rows.forEach((row, i) => {
    box.appendChild(el("span", row.slice(0, -1).join(" ")));
    const bar = el("div", null, "bar");
    bar.style.width = (100 * values[i] / most) + "%";
    box.appendChild(bar);
    box.appendChild(el("span", values[i].toLocaleString()));
  });
  return box;
}

function grid(table) {
  const node = el("table");
  const head = el("tr");
  table.columns.forEach((c) => head.appendChild(el("th", c)));
  node.appendChild(el("thead")).appendChild(head);
  const body = el("tbody");
  table.rows.slice(0, 200).forEach((row) => {
    const line = el("tr");
    row.forEach((cell) => line.appendChild(el("td", cell === null ? "" : typeof cell === "number" ? cell.toLocaleString() : cell,
                                                 typeof cell === "number" ? "num" : "")));
    body.appendChild(line);
  });
  node.appendChild(body);
  return node;
}

async function loadTraces() {
  try {
    const found = await api("GET", "/v1/traces?limit=20");
    $("traces").replaceChildren(...found.map((t) => {
      const item = el("li");
      const open = el("button", "Open");
      open.type = "button";
      open.addEventListener("click", () => showTrace(t.name));
      item.append(open, `${t.started} · ${t.stop_reason} · ${t.question} → ${t.answer}`);
      return item;
    }));
    if (!found.length) $("traces").replaceChildren(el("li", "No traces yet.", "muted"));
  } catch (error) {
    $("traces").replaceChildren(el("li", "Error: " + error.message));
  }
}

async function showTrace(name) {
  try {
    const t = await api("GET", `/v1/traces/${encodeURIComponent(name)}`);
    const lines = [`question: ${t.question}`, ...t.rows.map((r) => `${r.iteration}. ${r.action} ${r.params} → ${r.summary}`),
                   `answer: ${t.answer}`, `stop: ${t.stop_reason}`];
    $("trace").textContent = lines.join("\n");
  } catch (error) {
    $("trace").textContent = "Error: " + error.message;
  }
}

async function start() {
  $("token").value = sessionStorage.getItem("react-engine-token") || "";
  $("token").addEventListener("change", () => sessionStorage.setItem("react-engine-token", $("token").value));
  $("session-form").addEventListener("submit", openSession);
  $("ask-form").addEventListener("submit", ask);
  $("cancel").addEventListener("click", cancel);
  $("approval").addEventListener("close", answerApproval);
  $("approval").addEventListener("cancel", (e) => { e.preventDefault(); $("approval").close("reject"); });  // Esc rejects
  $("load-traces").addEventListener("click", loadTraces);
  $("logs").addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("session-form").requestSubmit(); } });
  try {
    const health = await api("GET", "/v1/health");
    $("server").textContent = "serving " + health.roots.join(", ");
  } catch (error) {
    $("server").textContent = error.message;
  }
}

document.addEventListener("DOMContentLoaded", start);
