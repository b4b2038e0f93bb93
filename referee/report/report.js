// The report's replay viewer and live view. report.html is written by referee/report/page.py;
// the list of finished games is report-assets/games.js (a line per game, each calling
// OlympiadReport.listed(row)), and each finished game's boards are in report-assets/game-NNNN.js
// (calling OlympiadReport.loaded(data)); both are loaded with a <script> element, which works
// from disk, unlike fetch.
// Addresses: #game-3 opens game 3 at its last ply, #game-3-ply-12 at ply 12; stepping keeps the
// address up to date, so the address bar is always a link to what is on the screen.
// The page's body says what else to do: data-live, the address of the games in progress to poll
// (live.json; none: no polling), data-game, the game to open when the address names none (the
// ladder's game page, which holds that game's data inline). The list of games is loaded only
// into a page that has one (#games-list).
"use strict";

const OlympiadReport = (() => {
  const games = new Map();      // game number -> data of report-assets/game-NNNN.js
  const listed = [];            // the rows of report-assets/games.js
  const waiting = new Map();    // game number -> ply wanted once its data has loaded
  let current = null;           // {data, ply}
  let reportVersion = null;     // live.json's version of report.html when this page loaded
  const $ = (id) => document.getElementById(id);

  function assetPath(number) {
    return `${document.body.dataset.assets}/game-${String(number).padStart(4, "0")}.js`;
  }

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "–";
    const sign = seconds < 0 ? "-" : "";
    const left = Math.abs(seconds);
    const minutes = Math.floor(left / 60);
    const rest = (left - 60 * minutes).toFixed(1).padStart(4, "0");
    return `${sign}${minutes}:${rest}`;
  }

  // A board back from its packed form (referee/report/replay.py, pack): runs of line numbers.
  function boardAt(data, ply) {
    const {lines, frames} = data.boards;
    const runs = frames[ply];
    const text = [];
    for (let at = 0; at < runs.length; at += 2) {
      text.push(...lines.slice(runs[at], runs[at] + runs[at + 1]));
    }
    return text.join("\n");
  }

  function parseAddress() {
    const match = /^#game-(\d+)(?:-ply-(\d+))?$/.exec(location.hash);
    return match ? {game: Number(match[1]), ply: match[2] === undefined ? null : Number(match[2])}
                 : null;
  }

  function pageGame() {
    const number = document.body.dataset.game;
    return number ? {game: Number(number), ply: null} : null;
  }

  function route() {
    const wanted = parseAddress() || pageGame();
    if (!wanted) {
      closeViewer();
      return;
    }
    if (games.has(wanted.game)) {
      openGame(games.get(wanted.game), wanted.ply);
      return;
    }
    waiting.set(wanted.game, wanted.ply);
    const script = document.createElement("script");
    script.src = assetPath(wanted.game);
    script.onerror = () => {
      waiting.delete(wanted.game);
      openMissing(wanted.game);
    };
    document.head.appendChild(script);
  }

  function loaded(data) {
    games.set(data.game_no, data);
    if (waiting.has(data.game_no)) {
      const ply = waiting.get(data.game_no);
      waiting.delete(data.game_no);
      const wanted = parseAddress() || pageGame();
      if (wanted && wanted.game === data.game_no) openGame(data, ply);
    }
  }

  function openMissing(number) {
    current = null;
    $("summary").hidden = true;
    $("viewer").hidden = false;
    $("v-title").textContent = `Game ${number}`;
    $("v-ending").textContent = "This game's replay is not in the report (yet): rebuild it with "
      + "olympiad-referee report DIR.";
    $("board").replaceChildren();
    $("moves").replaceChildren();
  }

  function openGame(data, ply) {
    const fresh = !current || current.data !== data;
    current = {data, ply: 0};
    $("summary").hidden = true;
    $("viewer").hidden = false;
    if (fresh) {
      $("v-title").textContent = `Game ${data.game_no}: ${data.black} (black) – `
        + `${data.white} (white), ${data.title}`;
      $("v-ending").textContent = `${data.result} · ${data.termination}: ${data.reason}`
        + (data.error ? ` · replay stopped at ${data.error}` : "");
      buildMoveList(data);
      $("evaluation").innerHTML = data.evaluation || "";
      $("evaluation").hidden = !data.evaluation;
      document.title = `Game ${data.game_no} – ${document.body.dataset.title}`;
    }
    const last = data.boards.frames.length - 1;
    step(ply === null ? last : ply);
  }

  function buildMoveList(data) {
    const list = $("moves");
    list.replaceChildren();
    data.moves.forEach((move, index) => {
      const item = document.createElement("li");
      item.dataset.ply = index + 1;
      item.className = index < data.opening_plies ? "opening" : "";
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move;
      button.title = `ply ${index + 1}`;
      button.addEventListener("click", () => step(index + 1));
      item.append(button);
      list.append(item);
    });
  }

  function step(ply) {
    if (!current) return;
    const data = current.data;
    const last = data.boards.frames.length - 1;
    ply = Math.max(0, Math.min(last, ply));
    current.ply = ply;
    const board = $("board");
    board.innerHTML = boardAt(data, ply);
    board.dataset.game = data.game_no;
    board.dataset.ply = ply;
    const clocks = data.clocks[ply] || [null, null];
    $("clock-black").textContent = clockText(clocks[0]);
    $("clock-white").textContent = clockText(clocks[1]);
    const move = ply > 0 ? data.moves[ply - 1] : "start";
    const opening = ply > 0 && ply <= data.opening_plies ? " (opening)" : "";
    $("ply-info").textContent = `ply ${ply} of ${last}: ${move}${opening}`;
    $("analysis-info").textContent = ply > 0 && data.analysis ? data.analysis[ply - 1] || "" : "";
    markPly($("evaluation"), ply);
    $("v-final").hidden = ply !== last;
    $("v-final").textContent = `${data.result} · ${data.termination}: ${data.reason}`;
    for (const item of $("moves").children) {
      item.classList.toggle("current", Number(item.dataset.ply) === ply);
    }
    const shown = $("moves").querySelector("li.current");
    if (shown) shown.scrollIntoView({block: "nearest"});
    const address = `#game-${data.game_no}-ply-${ply}`;
    if (location.hash !== address) history.replaceState(null, "", address);
    $("ply-link").href = address;
  }

  // The evaluation chart's cursor (referee/report/evaluation.py) moved to ``ply``.
  function markPly(holder, ply) {
    const chart = holder.querySelector("svg.evaluation");
    if (!chart) return;
    const {left, width, plies} = chart.dataset;
    const x = (Number(left) + Number(width) * ply / Number(plies)).toFixed(1);
    const cursor = chart.querySelector(".cursor");
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
    chart.dataset.ply = ply;
  }

  function closeViewer() {
    current = null;
    $("viewer").hidden = true;
    $("summary").hidden = false;
    document.title = document.body.dataset.title;
  }

  function copyMoves() {
    if (!current) return;
    const text = current.data.moves.join(" ");
    const done = () => { $("copy-status").textContent = "copied"; };
    const fallback = () => {
      const area = document.createElement("textarea");
      area.value = text;
      document.body.append(area);
      area.select();
      const copied = document.execCommand("copy");
      area.remove();
      $("copy-status").textContent = copied ? "copied" : "select and copy: " + text;
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  }

  function onKey(event) {
    if ($("viewer").hidden || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = {ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10};
    if (event.key in moves) {
      step(current.ply + moves[event.key]);
    } else if (event.key === "Home") {
      step(0);
    } else if (event.key === "End") {
      step(Infinity);
    } else if (event.key === "f") {
      $("board").classList.toggle("flipped");
    } else if (event.key === "Escape") {
      location.hash = "";
    } else {
      return;
    }
    event.preventDefault();
  }

  // --- live view: only when the report is served over HTTP by olympiad-referee ---------------

  function showLive(state) {
    const section = $("live");
    const list = $("live-games");
    section.hidden = state.games.length === 0;
    list.replaceChildren();
    for (const game of state.games) {
      const card = document.createElement("figure");
      card.className = "live-game";
      card.dataset.game = game.game_no;
      card.dataset.ply = game.ply;
      const board = document.createElement("div");
      board.className = "board small";
      board.innerHTML = game.board || "";
      const caption = document.createElement("figcaption");
      const last = game.moves.length ? game.moves[game.moves.length - 1] : "start";
      caption.textContent = `Game ${game.game_no}: ${game.black} (black) ${clockText(game.clocks[0])}`
        + ` – ${game.white} (white) ${clockText(game.clocks[1])} · ply ${game.ply}: ${last}`;
      card.append(board, caption);
      if (game.analysis) {
        const analysis = document.createElement("p");
        analysis.className = "note analysis";
        analysis.textContent = game.analysis;
        card.append(analysis);
      }
      if (game.evaluation) {
        const chart = document.createElement("div");
        chart.className = "evaluation";
        chart.innerHTML = game.evaluation;
        markPly(chart, game.ply);
        card.append(chart);
      }
      list.append(card);
    }
  }

  function poll() {
    fetch(document.body.dataset.live, {cache: "no-store"})
      .then((answer) => answer.ok ? answer.json() : Promise.reject(answer.status))
      .then((state) => {
        $("live-status").textContent = state.status
          || (state.running ? "live: the match is running" : "served");
        $("live-status").hidden = false;
        if (reportVersion === null) {
          reportVersion = state.version;
        } else if (state.version !== reportVersion) {  // report.html rewritten: a game ended
          location.reload();
          return;
        }
        showLive(state);
        setTimeout(poll, 1000);
      })
      .catch(() => {
        $("live-status").textContent = "live updates stopped: the server is gone";
        $("live-status").hidden = false;
      });
  }

  // --- the list of games, from report-assets/games.js ---------------------------------------

  const GAME_COLUMNS = [["game", ""], ["black", "name"], ["white", "name"], ["result", ""],
    ["termination", "name"], ["plies", ""], ["pair", ""], ["opening", ""], ["reason", "name"]];

  function cell(tag, text, css) {
    const element = document.createElement(tag);
    if (css) element.className = css;
    element.textContent = text === null || text === undefined ? "–" : String(text);
    return element;
  }

  function showGames() {
    if (!listed.length) return;
    const table = document.createElement("table");
    const head = document.createElement("tr");
    for (const [title, css] of GAME_COLUMNS) head.append(cell("th", title, css));
    table.append(head);
    listed.sort((a, b) => a.game_no - b.game_no);
    for (const row of listed) {
      const line = document.createElement("tr");
      line.id = `row-${row.game_no}`;
      const number = document.createElement("td");
      const link = document.createElement("a");
      link.href = `#game-${row.game_no}`;
      link.textContent = row.game_no;
      number.append(link);
      line.append(number, cell("td", row.black, "name"), cell("td", row.white, "name"),
        cell("td", row.result), cell("td", row.termination, "name"), cell("td", row.plies),
        cell("td", row.pair), cell("td", row.opening), cell("td", row.reason || "", "text"));
      table.append(line);
    }
    $("games-list").replaceChildren(table);
  }

  function loadGames() {
    const script = document.createElement("script");
    script.src = `${document.body.dataset.assets}/games.js`;
    script.onload = showGames;
    document.head.append(script);
  }

  function startViewer() {
    $("first").addEventListener("click", () => step(0));
    $("back").addEventListener("click", () => step(current.ply - 1));
    $("forward").addEventListener("click", () => step(current.ply + 1));
    $("last").addEventListener("click", () => step(Infinity));
    $("flip").addEventListener("click", () => $("board").classList.toggle("flipped"));
    $("copy").addEventListener("click", copyMoves);
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", route);
  }

  function start() {
    const viewer = Boolean($("viewer"));  // a ladder page without a replay has none
    if (viewer) startViewer();
    if ($("games-list")) loadGames();
    if (viewer) route();
    const served = location.protocol === "http:" || location.protocol === "https:";
    if (served && document.body.dataset.live) poll();
  }

  return {listed: (row) => listed.push(row), loaded, start, step};
})();

document.addEventListener("DOMContentLoaded", OlympiadReport.start);
