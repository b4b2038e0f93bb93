// The page a person plays an engine on (olympiad-referee play). It knows no rules: the board
// is the server's picture, and the cells that may be clicked next come from the rules' legal
// moves (GET /choices), so a compound move is built by clicking its cells in order. The server
// checks everything the page sends.
"use strict";

const page = {
  token: null, state: null, flipped: false, chosen: [], received: 0, pressed: null,
  // Each request for choices is numbered: an answer to an older one is dropped.
  asked: 0,
};
const $ = (id) => document.getElementById(id);

async function request(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text, kind) {
  const message = $("message");
  message.textContent = text || "";
  message.className = kind || "";
}

function stateUrl(since) {
  const query = new URLSearchParams({flipped: page.flipped ? "1" : "0"});
  if (page.token) query.set("token", page.token);
  if (since !== undefined) query.set("since", String(since));
  return "/state?" + query;
}

function cellsUrl(path, cells) {
  const query = new URLSearchParams({ply: String(page.state.ply),
                                     flipped: page.flipped ? "1" : "0"});
  for (const cell of cells) query.append("cell", cell);
  return path + "?" + query;
}

// --- drawing ---------------------------------------------------------------------------------

function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const whole = Math.floor(Math.max(0, seconds) * 10) / 10;  // a clock shows what is left
  const minutes = Math.floor(whole / 60);
  const rest = whole - 60 * minutes;
  return `${minutes}:${rest < 10 ? "0" : ""}${rest.toFixed(1)}`;
}

function drawClocks() {
  const state = page.state;
  if (!state) return;
  const elapsed = state.clock_elapsed + (performance.now() - page.received) / 1000;
  // The person's side at the bottom, unless the board is flipped.
  const bottom = (state.person === "white") !== page.flipped ? "white" : "black";
  const top = bottom === "black" ? "white" : "black";
  for (const [where, colour] of [["top", top], ["bottom", bottom]]) {
    const box = $("clock-" + where);
    const index = colour === "black" ? 0 : 1;
    let left = state.clocks[index];
    if (left !== null && state.running === colour) left -= elapsed;
    box.querySelector(".name").textContent =
      `${colour}: ${state.players[index] || ""}${state.person === colour ? " (you)" : ""}`;
    box.querySelector(".time").textContent = clockText(left);
    box.classList.toggle("running", state.running === colour);
    box.dataset.colour = colour;
  }
}

function addSpots(next) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const old = svg.querySelector("g.play-spots");
  if (old) old.remove();
  const layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
  layer.setAttribute("class", "play-spots");
  const radius = 16;
  const add = (name, [x, y], kind) => {
    const spot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    spot.setAttribute("class", `spot ${kind}`);
    spot.setAttribute("cx", x);
    spot.setAttribute("cy", y);
    spot.setAttribute("r", radius);
    spot.dataset.at = name;
    layer.appendChild(spot);
  };
  for (const [name, centre] of Object.entries(page.chosenAt || {})) add(name, centre, "chosen");
  for (const [name, centre] of Object.entries(next)) add(name, centre, "next");
  svg.appendChild(layer);
}

function showChoices(found) {
  page.choices = found;
  addSpots(found.next);
  document.body.dataset.chosen = page.chosen.join(" ");
  const box = $("complete");
  box.textContent = "";
  for (const text of found.complete) {
    const button = document.createElement("button");
    button.className = "complete";
    button.dataset.move = text;
    button.textContent = `play ${text}`;
    button.addEventListener("click", () => submit(text));
    box.appendChild(button);
  }
}

function render() {
  const state = page.state;
  $("title").textContent =
    state.title ? `${state.title}, game ${state.game_no}` : "waiting for the game";
  $("players").textContent =
    state.players[0] ? `black ${state.players[0]} – white ${state.players[1]}` : "";
  const board = $("board");
  board.innerHTML = state.board || "";
  board.dataset.ply = String(state.ply);
  board.dataset.game = state.game || "";
  const list = $("moves");
  list.textContent = "";
  state.moves.forEach((text, index) => {
    const item = document.createElement("li");
    item.textContent = text;
    if (index === state.moves.length - 1) item.className = "last";
    list.appendChild(item);
  });
  list.scrollTop = list.scrollHeight;
  let status;
  if (!state.holder) status = "This game is open in another tab: you are watching.";
  else if (state.ended) {
    const {result, termination, reason} = state.ended;
    status = `Game over: ${result} (${termination}: ${reason}).`;
  }
  else if (state.your_turn) status = `Your move (${state.to_move}).`;
  else if (state.to_move) status = `${state.to_move} is thinking…`;
  else status = "Waiting for the game to start.";
  if (state.closed) status = "The referee has stopped; you can close this page.";
  $("status").textContent = status;
  document.body.dataset.turn = state.your_turn ? "yours" : "theirs";
  document.body.dataset.ended = state.ended ? "yes" : "no";
  $("takeback").disabled = !state.your_turn || state.ply < 2;
  $("resign").disabled = !state.your_turn;
  $("new-game").disabled = !state.ended || !state.holder;
  $("new-game").hidden = !state.offers_new_games;
  const analysis = state.analysis;
  $("analysis").hidden = !analysis;
  if (analysis) {
    $("score").textContent = analysis.score === undefined ? "" : `score ${analysis.score}`;
    $("pv").textContent = (analysis.pv || []).join(" ");
  }
  page.chosen = [];
  page.chosenAt = {};
  if (state.your_turn && state.choices) showChoices(state.choices);
  else showChoices({next: {}, complete: []});
  drawClocks();
}

// --- moves -----------------------------------------------------------------------------------

async function choose(name) {
  const state = page.state;
  if (!state || !state.your_turn) return;
  const spots = page.choices ? page.choices.next : {};
  const cells = [...page.chosen, name];
  if (name in page.chosenAt) {  // a chosen cell again: start the move afresh
    page.chosen = [];
    page.chosenAt = {};
    showChoices(state.choices);
    return;
  }
  if (!(name in spots)) {
    const ticket = ++page.asked;
    const {reason} = await request("GET", cellsUrl("/why", cells));
    if (ticket !== page.asked) return;
    say(reason, "refused");
    page.chosen = [];
    page.chosenAt = {};
    showChoices(state.choices);
    return;
  }
  page.chosen = cells;
  page.chosenAt[name] = spots[name];
  const ticket = ++page.asked;
  const found = await request("GET", cellsUrl("/choices", cells));
  if (ticket !== page.asked) return;
  say("");
  if (Object.keys(found.next).length === 0 && found.complete.length === 1) {
    submit(found.complete[0]);
  } else {
    showChoices(found);
  }
}

async function submit(text) {
  try {
    await request("POST", "/move", {token: page.token, ply: page.state.ply, move: text});
    say("");
  } catch (error) {
    say(error.message, "refused");
    page.chosen = [];
    page.chosenAt = {};
    if (page.state.choices) showChoices(page.state.choices);
  }
}

async function action(path) {
  try {
    await request("POST", path, {token: page.token, ply: page.state ? page.state.ply : -1});
    say("");
  } catch (error) {
    say(error.message, "refused");
  }
}

function cellAt(x, y) {
  for (const element of document.elementsFromPoint(x, y)) {
    if (element.classList.contains("spot")) return element.dataset.at;
  }
  for (const element of document.elementsFromPoint(x, y)) {
    const name = element.dataset && (element.dataset.at || element.dataset.square);
    if (name) return name;
  }
  return null;
}

// A click chooses a cell; pressing on one cell and letting go on another (a drag) chooses both.
function onPress(event) {
  const name = cellAt(event.clientX, event.clientY);
  page.pressed = name;
  if (name) {
    event.preventDefault();
    choose(name);
  }
}

function onRelease(event) {
  const name = cellAt(event.clientX, event.clientY);
  const pressed = page.pressed;
  page.pressed = null;
  if (name && pressed && name !== pressed && page.choices && name in page.choices.next) {
    choose(name);
  }
}

// --- the connection --------------------------------------------------------------------------

async function follow() {
  let since;
  for (;;) {
    try {
      const state = await request("GET", stateUrl(since));
      page.state = state;
      page.received = performance.now();
      since = state.version;
      render();
      if (state.closed) return;
    } catch (error) {
      say(`lost the referee (${error.message}); trying again`, "refused");
      since = undefined;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function reload() {
  page.state = await request("GET", stateUrl());
  page.received = performance.now();
  render();
}

async function start() {
  try {
    page.token = (await request("POST", "/claim", {})).token;
  } catch (error) {
    say(error.message, "refused");
  }
  $("board").addEventListener("pointerdown", onPress);
  $("board").addEventListener("pointerup", onRelease);
  $("flip").addEventListener("click", () => { page.flipped = !page.flipped; reload(); });
  $("coordinates").addEventListener("click",
                                    () => document.body.classList.toggle("no-coordinates"));
  $("resign").addEventListener("click", () => action("/resign"));
  $("takeback").addEventListener("click", () => action("/takeback"));
  $("new-game").addEventListener("click", () => action("/new"));
  $("save").addEventListener("click", () => { window.location.href = "/record"; });
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("typed-move").value.trim();
    if (text) submit(text);
    $("typed-move").value = "";
  });
  window.addEventListener("pagehide", () => {
    if (page.token) navigator.sendBeacon("/leave", JSON.stringify({token: page.token}));
  });
  setInterval(drawClocks, 100);
  follow();
}

start();
