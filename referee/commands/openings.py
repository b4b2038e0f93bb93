"""``olympiad-referee openings``: write a book of balanced random openings for ``--openings``.

The work is :func:`referee.book_maker.generate_book`'s; this module reads the command line and
writes the book with a header saying how it was made (the command, the search and its bound),
then the ``game:``, ``size:`` and ``options:`` lines that :func:`referee.plan.openings.load_book`
checks against a run.
"""

from __future__ import annotations

import random
from pathlib import Path

import click

from ..plan.book_maker import DEPTH, game_bound, generate_book
from ..plan.openings import BookError, book_text, write_book
from .arguments import (FORCE, WHOLE, WholeRange, build_setup, parse_options, parse_size,
                        refuse_overwrite)


@click.command(context_settings={"max_content_width": 100})
@click.option("--game", required=True, help="Game name or alias.")
@click.option("--boardsize", metavar="N|COLSxROWS", help="Board size, for games that vary it.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, as for match (repeatable).")
@click.option("--plies", type=WholeRange(0), required=True,
              help="Random moves in each opening.")
@click.option("--count", type=WholeRange(1), required=True,
              help="Distinct openings to write.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The book file to write (one opening a line).")
@click.option("--seed", type=WHOLE, default=None,
              help="Seed of the random moves (default: drawn, written in the header).")
@click.option("--depth", type=WholeRange(1), default=DEPTH, show_default=True,
              help="Plies the alpha-beta search looks ahead from each opening.")
@click.option("--bound", type=WholeRange(0), default=None,
              help="Largest score kept, in the game's evaluation units (default: the game's "
                   "own, see docs/referee.md).")
@FORCE
def openings(game: str, boardsize: str | None, options: tuple[str, ...], plies: int,
             count: int, out: Path, seed: int | None, depth: int, bound: int | None,
             force: bool) -> None:
    """Write COUNT distinct openings of PLIES random moves that a short search calls level."""
    refuse_overwrite(out, force)
    size = parse_size(boardsize) if boardsize else None
    setup = build_setup(game, parse_options(options), size)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    run_game = setup.make_game()
    try:
        limit = game_bound(run_game).score if bound is None else bound
        book = generate_book(setup, plies, count, seed, depth, limit)
    except BookError as error:
        raise click.UsageError(str(error)) from None
    per_opening = sorted({key for opening in book for key in opening.start_options})
    words = ["olympiad-referee openings", f"--game {run_game.name}"]
    words += [f"--boardsize {boardsize}"] if boardsize else []
    words += [f"--option {word}" for word in options]
    words += [f"--plies {plies}", f"--count {count}", f"--seed {seed}", f"--depth {depth}"]
    words += [f"--bound {bound}"] if bound is not None else []
    comments = [
        " ".join(words),
        f"{count} openings of {plies} random plies, each a distinct position, kept when a "
        f"{depth}-ply alpha-beta search scores it within {limit} of level for the side to move"
        + (f" ({run_game.clear_advantage.meaning})" if bound is None else "")
        + " and finds no forced win",
    ]
    try:
        write_book(out, book_text(book, run_game, comments, per_opening))
    except OSError as error:
        raise click.UsageError(f"{out}: {error.strerror or error}") from None
    click.echo(f"wrote {count} openings of {plies} plies to {out} (seed {seed})")
