"""``olympiad-referee render``: draw one position of any game to an SVG or a PNG file.

The position comes from an SGF record (``render game.sgf --ply 30``: the game, size and
options from its root, then the first 30 moves of its main line) or from the command line
(``render --game argon --moves "e5 d5+b2"``). The moves are replayed with the rules code, so a
move that is not legal stops the command with a one-line error naming it; the picture is
:func:`engine.drawing.svg`'s, with the last move marked.

The format follows ``--out``'s extension: ``.svg`` is the drawing itself, ``.png`` the same
drawing taken by a headless Chromium (:mod:`referee.report.png`). Any other extension, or
``.png`` without a Chromium installed, is refused before anything is written: a file never
holds another format than its name says.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import click

from engine import Game, GameError, Position, find_game
from engine.drawing import svg

from ..records.sgf import SgfError, game_of_record, read_sgf
from ..report.png import BROWSERS, PictureError, find_browser, write_png
from .arguments import FORCE, WholeRange, parse_options, parse_size, refuse_overwrite


def replay(game: Game, moves: Sequence[str]) -> tuple[Position, str | None]:
    """The position after ``moves`` and the canonical text of the last one (``None`` at the
    start); a move that is not legal raises :class:`GameError` naming its number."""
    position, last = game.initial_position(), None
    for position, last in game.replay(moves):
        pass
    return position, last


@click.command(context_settings={"max_content_width": 100})
@click.argument("record", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--ply", type=WholeRange(0), default=None,
              help="With an SGF record: draw the position after this many moves "
                   "(default: the last).")
@click.option("--game", help="Game name or alias (instead of an SGF record).")
@click.option("--boardsize", metavar="N|COLSxROWS", help="Board size, for games that vary it.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, as for match (repeatable).")
@click.option("--moves", default="", metavar='"M1 M2 ..."',
              help="Moves played from the start, separated by spaces.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write: NAME.svg, or NAME.png (drawn by a headless Chromium).")
@click.option("--flip", is_flag=True, help="Turn the board half round (a1 at the top right).")
@click.option("--caption/--no-caption", default=True, show_default=True,
              help="A line under the board: side to move or result, and the last move.")
@FORCE
def render(record: Path | None, ply: int | None, game: str | None, boardsize: str | None,
           options: tuple[str, ...], moves: str, out: Path, flip: bool, caption: bool,
           force: bool) -> None:
    """Draw one position as SVG or PNG: from an SGF RECORD (--ply K) or from --game and
    --moves."""
    refuse_overwrite(out, force)
    if (record is None) == (game is None):
        raise click.UsageError("give either an SGF record or --game")
    try:
        if record is not None:
            if boardsize or options or moves:
                raise click.UsageError("--boardsize, --option and --moves go with --game, "
                                       "not with an SGF record")
            sgf = read_sgf(_read(record))
            texts = [text for _, text in sgf.moves]
            if ply is not None and ply > len(texts):
                raise click.UsageError(f"--ply {ply}: {record} has {len(texts)} moves")
            played = game_of_record(sgf)
            texts = texts[:ply]
        else:
            if ply is not None:
                raise click.UsageError("--ply goes with an SGF record; with --game, give --moves")
            size = parse_size(boardsize) if boardsize else None
            played = find_game(game)(parse_options(options), size)
            texts = moves.split()
        position, last = replay(played, texts)
    except SgfError as error:
        raise click.UsageError(f"{record}:{error.line}: {error.reason}") from None
    except GameError as error:
        raise click.UsageError(str(error)) from None
    browser = _browser_for(out)
    picture = svg(position, last, flip, with_caption=caption)
    try:
        if browser is None:
            out.write_text(picture, encoding="utf-8")
        else:
            write_png(picture, out, browser)
    except OSError as error:
        raise click.UsageError(f"cannot write {out}: {error.strerror}") from None
    except PictureError as error:
        raise click.UsageError(f"cannot write {out}: {error}") from None
    click.echo(f"{out}: {played.title} after {position.ply} moves")


def _browser_for(out: Path) -> str | None:
    """``None`` for an SVG file; for a PNG file the Chromium that draws it; any other
    extension, or a PNG without a Chromium, is a usage error."""
    extension = out.suffix.lower()
    if extension == ".svg":
        return None
    if extension != ".png":
        raise click.BadParameter(f"{out}: the picture's format follows the extension; write "
                                 f".svg or .png", param_hint="--out")
    browser = find_browser()
    if browser is None:
        raise click.BadParameter(f"{out}: a PNG is drawn by a headless Chromium, and none is "
                                 f"installed ({', '.join(BROWSERS)} on PATH); write .svg",
                                 param_hint="--out")
    return browser


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise click.UsageError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise click.UsageError(f"{path} is not UTF-8 text") from None
