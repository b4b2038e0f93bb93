// The page a person plays an engine on (olympiad-referee play). It knows no rules: the board
// is the server's picture, and the cells that may be clicked next come from the rules' legal
// moves (GET /choices), so a compound move is built by clicking its cells in order. The server
// checks everything the page sends.
"use strict";

const page = {
  token: null, state: null, flipped: false, received: 0,
  // The move being made: the state it is made in (key), the cells chosen so far and what may
  // follow them (GET /choices). It lives until the person's turn at that ply is over, whatever
  // the page redraws meanwhile.
  move: null,
  // The press of the mouse button: its cell and the move it was made in, so that letting go
  // is judged against the position in which the button went down.
  press: null,
  // Each request for choices is numbered: an answer to an older one is dropped.
  asked: 0, pending: Promise.resolve(),
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

const SVG = "http://www.w3.org/2000/svg";

function addSpots() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const old = svg.querySelector("g.play-spots");
  if (old) old.remove();
  const layer = document.createElementNS(SVG, "g");
  layer.setAttribute("class", "play-spots");
  const add = (tag, attributes) => {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, value);
    layer.appendChild(shape);
    return shape;
  };
  const move = page.move;
  if (move) {
    // A cell that may come next: a ring round it, light inside a dark halo, seen on every
    // colour and hiding nothing; the whole cell answers a click.
    for (const [name, [x, y]] of Object.entries(move.choices.next)) {
      add("circle", {class: "halo", cx: x, cy: y, r: 17});
      add("circle", {class: "spot next", cx: x, cy: y, r: 17, "data-at": name});
    }
    // The cells chosen so far: a thicker ring each, numbered in the order chosen (a cell
    // chosen twice has both numbers).
    const numbers = {};
    move.cells.forEach((name, index) => {
      (numbers[name] = numbers[name] || []).push(index + 1);
    });
    for (const [name, order] of Object.entries(numbers)) {
      const [x, y] = move.choices.at[name];
      add("circle", {class: "halo chosen", cx: x, cy: y, r: 18});
      add("circle", {class: "spot chosen", cx: x, cy: y, r: 18, "data-at": name});
      add("text", {class: "order", x: x + 13, y: y - 11}).textContent = order.join(",");
    }
  }
  svg.appendChild(layer);
}

// The line beside the board: what the move so far is and what the next click asks for.
function showPrompt() {
  const move = page.move;
  const choices = move ? move.choices : null;
  $("made").textContent = choices && choices.made ? `${choices.made} …` : "";
  let words = "";
  if (choices) {
    words = choices.prompt;
    const ready = offered(choices).join(" or ");
    if (ready) words = words ? `${words}, or play ${ready}` : `play ${ready}`;
    if (move.cells.length) words += " (Escape or a click beside the board starts again)";
  }
  $("step").textContent = words;
  document.body.dataset.chosen = move ? move.cells.join(" ") : "";
  document.body.dataset.prompt = words;
}

// The moves the cells chosen make that a button offers: none when they make one move that
// nothing could continue (the page hands it in at once).
function offered(choices) {
  const alone = Object.keys(choices.next).length === 0 && choices.complete.length === 1;
  return alone ? [] : choices.complete;
}

function showMove() {
  addSpots();
  showPrompt();
  const box = $("complete");
  box.textContent = "";
  for (const text of page.move ? offered(page.move.choices) : []) {
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
  const last = state.moves[state.moves.length - 1];
  $("status").textContent = last ? `${status} Last move ${last}.` : status;
  $("play-here").hidden = state.holder || state.closed;
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
  keepMove();
  drawClocks();
}

// --- moves -----------------------------------------------------------------------------------

// The key of the person's turn in the state shown, or null when it is not their turn.
function turnKey(state) {
  return state && state.your_turn ? `${state.game_no}/${state.ply}` : null;
}

// After a redraw: the move being made goes on if the turn is the same, and is drawn again
// (its cells looked up again when the board was flipped meanwhile).
function keepMove() {
  const key = turnKey(page.state);
  const move = page.move;
  if (!key) page.move = null;
  else if (!move || move.key !== key) startMove();
  else if (move.flipped !== page.flipped) {
    askChoices(move.cells);
    return;
  }
  showMove();
}

// A move afresh at the current turn: no cell chosen yet.
function startMove() {
  const state = page.state;
  page.move = {key: turnKey(state), cells: [], flipped: page.flipped,
               choices: state.choices};
}

// Ask what may follow ``cells`` in the move being made, and show it; an answer for a move or
// turn that is no longer the current one is dropped.
function askChoices(cells) {
  const move = page.move;
  const ticket = ++page.asked;
  const flipped = page.flipped;
  page.pending = request("GET", cellsUrl("/choices", cells)).then((found) => {
    if (ticket !== page.asked || page.move !== move) return null;
    Object.assign(move, {cells, choices: found, flipped});
    return found;
  }).catch(() => null);  // a stale ply: the new state is on its way
  return page.pending.then((found) => {
    if (found) showMove();
    return found;
  });
}

function cancelMove() {
  if (!page.move || page.move.cells.length === 0) return;
  page.asked++;
  startMove();
  showMove();
  say("");
}

async function choose(name) {
  const move = page.move;
  if (!move) return;
  if (!(name in move.choices.next)) {
    if (move.cells.length && name in page.state.choices.next) {  // another piece: begin there
      startMove();
      return choose(name);
    }
    const ticket = ++page.asked;
    try {
      const {reason} = await request("GET", cellsUrl("/why", [...move.cells, name]));
      if (ticket === page.asked && page.move === move) say(reason, "refused");
    } catch (error) {
      // a stale ply: the new state is on its way
    }
    return;
  }
  const found = await askChoices([...move.cells, name]);
  if (!found) return;
  say("");
  if (Object.keys(found.next).length === 0 && found.complete.length === 1) {
    submit(found.complete[0]);
  }
}

async function submit(text) {
  try {
    await request("POST", "/move", {token: page.token, ply: page.state.ply, move: text});
    say("");
  } catch (error) {
    say(error.message, "refused");
    if (page.move) {
      startMove();
      showMove();
    }
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

async function claim() {
  try {
    page.token = (await request("POST", "/claim", {})).token;
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
// A press beside the board's cells starts the move again.
function onPress(event) {
  if (event.button !== 0) return;
  const name = cellAt(event.clientX, event.clientY);
  page.press = {name, key: page.move ? page.move.key : null};
  if (!name) {
    cancelMove();
    return;
  }
  event.preventDefault();
  choose(name);
}

async function onRelease(event) {
  const press = page.press;
  page.press = null;
  const name = cellAt(event.clientX, event.clientY);
  if (!press || !press.name || !name || name === press.name) return;
  await page.pending;
  // Judged in the position the press was made in: if the engine has moved meanwhile (or the
  // move was begun again), letting go chooses nothing.
  const move = page.move;
  if (move && move.key === press.key && name in move.choices.next) choose(name);
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
  await claim();
  $("board").addEventListener("pointerdown", onPress);
  $("board").addEventListener("pointerup", onRelease);
  document.addEventListener("pointerdown", (event) => {
    if (!event.target.closest("#board, #complete, #buttons, #typed")) cancelMove();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") cancelMove();
  });
  $("play-here").addEventListener("click", async () => { await claim(); reload(); });
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
