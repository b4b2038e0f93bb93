"""Opening books: reading them, checking them with the rules, and the order a run uses them in.

An opening is a short sequence of moves played from the start before the engines take over
(SPEC's notation, canonical once read); a run plays each opening twice with colours swapped, so
that deterministic engines play different games and neither colour is favoured by the choice.

**Text books.** One opening a line, moves in the game's notation separated by spaces; ``#``
starts a comment, blank lines are ignored. A line may begin with *start options*, ``KEY=VALUE``
words before the first move, that fix the start this opening is played from::

    # game: laocoon
    # options: variant=random
    layout=pobyyo... e5 d4 e5-e6+c3
    a2-a3 h7-h6

The only start option is ``layout`` (:data:`START_KEYS`): laoCoon's 64-letter layout and
Cookie Disco's layout number. A start option the run's own ``--option`` already sets must agree
with it. In a game whose start is random (laoCoon ``variant=random|quick``, without a
``layout`` for the whole run) every opening must carry its layout, because its moves are only
legal on that layout; a line with a layout and no moves is a fine opening too (a book of
layouts). Comment lines of the header (before the first opening) of the form ``# game: NAME``,
``# size: COLSxROWS`` and ``# options: KEY=VALUE ...`` are checked against the run when present;
:func:`book_text` writes them, so a book made for another game, size or variant is refused.

**SGF.** A ``.sgf`` file (a collection: every game tree is one opening) or a folder of them
(read in name order): the first ``plies`` moves of each main line (all of it without
``plies``). The root's ``GM`` and ``SZ`` must be the run's game and size; the options the
referee records in the root comment (``GC[options: KEY=VALUE ...]``, as
:func:`referee.records.sgf_text` writes it) must be the run's, except start options, which
are kept with the opening. Moves must alternate as the rules say.

**Checking.** Every opening is played through with the referee's rules for the run's game,
size and options before any game starts. The first bad one raises :class:`BookError` with one
line ``FILE:LINE: MOVE: reason`` (``book.txt:2: a3-a9: ...``): a move that cannot be read or is
illegal, an opening that ends the game or reaches the move limit, options or a size other than
the run's, an empty book. ``plies`` cuts every opening (text or SGF) to its first ``plies``
moves; shorter ones are kept whole.

**Using a book.** :func:`order_openings` is the one function a schedule calls::

    order_openings(book, count, order="sequential", start=1, seed=0) -> list[Opening]

It gives the ``count`` openings the run's pairs (or games) use, one each, in order: the book
from its ``start``-th opening (1-based) on, wrapping round to the first after the last;
``order="random"`` first shuffles the book once with ``random.Random(seed)`` and then reads
the shuffled book the same way, so that every opening is used once before any is used again
and a resumed run plans the same openings. A game plays ``opening.moves`` from the start given
by ``opening.start_options`` when it has any (sent with ``set_game`` on top of the run's
options, in place of a drawn random start), else from the run's usual start.

Making books for games that have none is :mod:`referee.book_maker`'s job; :func:`book_text`
and :func:`write_book` write what it makes.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from engine import COLOUR_NAMES, Game, GameError, find_game

from ..records.sgf import SgfError, SgfRecord, read_collection
from .setup import Opening, Setup

START_KEYS = ("layout",)
ORDERS = ("sequential", "random")
_START_WORD = re.compile(r"[A-Za-z_]+=")
_HEADER = re.compile(r"#\s*(game|size|options)\s*:(.*)", re.IGNORECASE)


class BookError(ValueError):
    """A book that cannot be used for this run; the message is one line naming the place."""


def load_book(path: str | Path, setup: Setup, plies: int | None = None) -> list[Opening]:
    """The openings of the book at ``path`` (a text book, an SGF file or a folder of SGF files),
    each checked with the rules of ``setup``'s game, cut to ``plies`` moves when given; raises
    :class:`BookError` at the first opening that cannot be played."""
    path = Path(path)
    if plies is not None and plies < 0:
        raise BookError(f"{path}: the number of opening plies must be 0 or more, not {plies}")
    try:
        run_game = setup.make_game()
    except GameError as error:
        raise BookError(f"{path}: {error}") from None
    if path.is_dir():
        files = sorted(file for file in path.iterdir() if file.suffix.lower() == ".sgf")
        if not files:
            raise BookError(f"{path}: a folder without .sgf files")
        drafts = [draft for file in files for draft in _sgf_drafts(file, _read(file), run_game)]
    else:
        text = _read(path)
        if text.lstrip().startswith("("):
            drafts = _sgf_drafts(path, text, run_game)
        else:
            drafts = _text_drafts(path, text, run_game)
    if not drafts:
        raise BookError(f"{path}: the book has no openings")
    return [_checked(number, draft, setup, run_game, plies)
            for number, draft in enumerate(drafts, 1)]


@dataclass
class _Draft:
    """An opening as read, before the rules have seen it: where each move is written (for the
    error), and the colour the record says plays it (SGF only)."""

    source: str
    start_options: dict[str, str]
    moves: list[str]
    places: list[str]
    colours: list[int | None]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise BookError(f"{path}: cannot read the book: {reason}") from None


# --- text books ----------------------------------------------------------------------------------

def _text_drafts(path: Path, text: str, game: Game) -> list[_Draft]:
    drafts = []
    for number, line in enumerate(text.splitlines(), 1):
        place = f"{path}:{number}"
        words = line.split("#", 1)[0].split()
        if not words:
            header = _HEADER.match(line.strip())
            if header and not drafts:
                _check_header(place, header.group(1).lower(), header.group(2).strip(), game)
            continue
        options = {}
        while words and _START_WORD.match(words[0]):
            key, _, value = words.pop(0).partition("=")
            if key.lower() in options:
                raise BookError(f"{place}: {key}= is given twice")
            options[key.lower()] = value
        late = next((word for word in words if _START_WORD.match(word)), None)
        if late:
            raise BookError(f"{place}: {late}: start options come before the moves")
        drafts.append(_Draft(place, options, words, [place] * len(words), [None] * len(words)))
    return drafts


def _check_header(place: str, field_name: str, value: str, game: Game) -> None:
    """A ``# game:``, ``# size:`` or ``# options:`` header line must agree with the run."""
    if field_name == "game":
        try:
            named = find_game(value).name
        except GameError:
            named = value
        if named != game.name:
            raise BookError(f"{place}: the book is for {value}, the run plays {game.name}")
    elif field_name == "size":
        size = _size_text(game.size)
        if value.lower() != size:
            raise BookError(f"{place}: the book is for size {value}, the run's is {size}")
    else:
        for word in value.split():
            if word.lower() != "none":
                _check_option(place, word, game)


def _size_text(size: tuple[int, int] | None) -> str:
    return f"{size[0]}x{size[1]}" if size else "none"


def _check_option(place: str, word: str, game: Game) -> None:
    """``KEY=VALUE`` recorded with a book or a game must be the run's setting."""
    key, _, value = word.partition("=")
    key = key.lower()
    if key not in game.options:
        raise BookError(f"{place}: the book has option {key}, which {game.name} does not have")
    try:
        value = game.check_option(key, value)
    except GameError as error:
        raise BookError(f"{place}: {error}") from None
    if value != game.settings[key]:
        raise BookError(f"{place}: the book is for {key}={_short(value)}, the run has "
                        f"{key}={_short(game.settings[key])}")


def _short(value: str) -> str:
    return value if len(value) <= 20 else value[:17] + "..."


# --- SGF -----------------------------------------------------------------------------------------

def _sgf_drafts(path: Path, text: str, game: Game) -> list[_Draft]:
    try:
        records = read_collection(text)
    except SgfError as error:
        raise BookError(f"{path}:{error.line}: {error.reason}") from None
    return [_sgf_draft(path, record, game) for record in records]


def _sgf_draft(path: Path, record: SgfRecord, game: Game) -> _Draft:
    place = f"{path}:{record.line}"
    root = record.root
    if record.game_name is not None:
        named = record.game_name
        try:
            named = find_game(named).name
        except GameError:
            pass
        if named != game.name:
            raise BookError(f"{place}: GM[{root['GM'][0]}]: the record is not of {game.name}")
    if record.size_texts is not None:
        size = "x".join(record.size_texts)
        if size != _size_text(game.size):
            raise BookError(f"{place}: SZ[{root['SZ'][0]}]: the record is for size {size}, "
                            f"the run's is {_size_text(game.size)}")
    setup_nodes = [name for node in record.nodes for name in ("AB", "AW", "AE") if name in node]
    if setup_nodes:
        raise BookError(f"{place}: {setup_nodes[0]}[]: setup properties are not supported")
    options = {}
    for key, value in record.options.items():
        if key.lower() in START_KEYS and key.lower() in game.options:
            options[key.lower()] = value
        else:
            _check_option(place, f"{key}={value}", game)
    moves = [text for _, text in record.moves]
    places = [f"{path}:{line}" for line in record.move_lines]
    return _Draft(place, options, moves, places, [colour for colour, _ in record.moves])


# --- checking with the rules ---------------------------------------------------------------------

def _checked(number: int, draft: _Draft, setup: Setup, run_game: Game,
             plies: int | None) -> Opening:
    """The opening once the rules have accepted its start options and every move."""
    start = _start_options(draft, setup, run_game)
    try:
        game = setup.make_game(start)
    except GameError as error:
        raise BookError(f"{draft.source}: {error}") from None
    position = game.initial_position()
    count = len(draft.moves) if plies is None else min(plies, len(draft.moves))
    canonical = []
    for text, place, colour in zip(draft.moves[:count], draft.places, draft.colours):
        if position.outcome is not None:
            break
        if colour is not None and colour != position.to_move:
            raise BookError(f"{place}: {text}: the record gives it to {COLOUR_NAMES[colour]}, "
                            f"but {COLOUR_NAMES[position.to_move]} is to move")
        try:
            move = position.parse_move(text)
        except GameError as error:
            reason = str(error)
            if reason.lower().startswith(text.lower() + ": "):
                reason = reason[len(text) + 2:]
            raise BookError(f"{place}: {text}: {reason}") from None
        canonical.append(position.move_text(move))
        position.play(move)
    if position.outcome is not None:
        raise BookError(f"{draft.source}: the opening ends the game after {len(canonical)} "
                        f"plies ({position.outcome.result}: {position.outcome.reason})")
    if len(canonical) >= setup.max_moves:
        raise BookError(f"{draft.source}: the opening has {len(canonical)} plies, as many as "
                        f"the move limit ({setup.max_moves})")
    return Opening(number, tuple(canonical), start, draft.source)


def _start_options(draft: _Draft, setup: Setup, game: Game) -> dict[str, str]:
    """The draft's start options, normalised, once they are known to be start options that
    agree with the run's; a random start must be fixed by every opening."""
    run_keys = {key.lower() for key in setup.options}
    drawn = [key for key in game.draw_start(random.Random(0)) if key not in run_keys]
    start = {}
    for key, value in draft.start_options.items():
        if key not in START_KEYS or key not in game.options:
            allowed = [key for key in START_KEYS if key in game.options]
            raise BookError(f"{draft.source}: {key}={_short(value)}: not a start option of "
                            f"{game.name} (start options: {', '.join(allowed) or 'none'})")
        try:
            value = game.check_option(key, value)
        except GameError as error:
            raise BookError(f"{draft.source}: {error}") from None
        if key in run_keys and value != game.settings[key]:
            raise BookError(f"{draft.source}: {key}={_short(value)}: the run sets "
                            f"{key}={_short(game.settings[key])}")
        if value != game.settings[key] or key in drawn:
            start[key] = value  # the run's own setting needs no repeating
    missing = [key for key in drawn if key not in start]
    if missing:
        settings = " ".join(f"{key}={value}" for key, value in setup.options.items())
        raise BookError(f"{draft.source}: no {missing[0]}=: {game.name} {settings} starts at "
                        f"random, so every opening must fix its {missing[0]}")
    return start


# --- order ---------------------------------------------------------------------------------------

def order_openings(book: Sequence[Opening], count: int, order: str = "sequential",
                   start: int = 1, seed: int = 0) -> list[Opening]:
    """The ``count`` openings a run uses, one per pair (or game), in the order it uses them.

    ``order`` ``sequential`` reads the book from its ``start``-th opening (1-based), wrapping
    round; ``random`` does the same on the book shuffled once with ``random.Random(seed)``.

    >>> book = [Opening(number, (f"a{number}",)) for number in (1, 2, 3)]
    >>> [opening.number for opening in order_openings(book, 5, start=2)]
    [2, 3, 1, 2, 3]
    """
    if order not in ORDERS:
        raise ValueError(f"unknown opening order {order!r} (expected {'|'.join(ORDERS)})")
    if not book:
        raise ValueError("an empty book")
    if not 1 <= start <= len(book):
        raise ValueError(f"opening start {start} is outside the book's 1-{len(book)}")
    openings = list(book)
    if order == "random":
        random.Random(seed).shuffle(openings)
    return [openings[(start - 1 + index) % len(openings)] for index in range(count)]


# --- writing -------------------------------------------------------------------------------------

def book_text(book: Iterable[Opening], game: Game, comments: Sequence[str] = (),
              per_opening: Sequence[str] = ()) -> str:
    """A text book: comment lines (``comments``), the header lines :func:`load_book` checks
    (the game, its size, its options except the ``per_opening`` ones each line carries), then
    one opening a line."""
    options = [f"{key}={value}" for key, value in game.settings.items() if key not in per_opening]
    lines = [f"# {comment}" for comment in comments]
    lines += [f"# game: {game.name}", f"# size: {_size_text(game.size)}",
              f"# options: {' '.join(options) or 'none'}"]
    lines += [opening.text() for opening in book]
    return "\n".join(lines) + "\n"


def write_book(path: str | Path, text: str) -> None:
    """Write a book's text to ``path`` whole (a temporary file, then renamed)."""
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)

