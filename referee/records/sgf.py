"""A small SGF reader (FF[4]): the root's properties and the main line of each game tree.

SGF is the record format the referee writes (:func:`referee.records.sgf_text`) and the one in
which game collections circulate; the openings reader takes the first plies of each record and
``render FILE.sgf --ply K`` draws a position from one. Only what those uses need is read:

* a collection holds one or more game trees ``( ;node ;node ... (variation) (variation) )``;
  the main line of a tree is its own nodes, then the main line of its first variation;
  the other variations are skipped (but must still be well formed);
* a node holds properties ``ID[value][value]...``; identifiers are upper-case letters (the
  lower-case letters FF[3] allowed inside them are dropped, as FF[4] asks);
* in a value, ``\\`` makes the next character literal and a ``\\`` before a line break removes
  the break (SGF's soft line break); anything else is kept as written;
* a move is ``B[text]`` or ``W[text]``, the text in the game's own notation (an empty value is
  SGF's pass and reads as ``pass``). Property values are not interpreted any further.

A malformed record raises :class:`SgfError` with the line number of the fault; so does one whose
variations nest deeper than :data:`MAX_NESTING`. The reader keeps no recursion and reads in time
linear in the text, however long the main line or deep the nesting.

>>> record = read_sgf("(;FF[4]GM[breakthrough];W[a2-a3]C[a \\\\] b];B[h7-h6]"
...                   "(;W[b2-b3])(;W[c2-c3]))")
>>> record.root["GM"], record.moves
(['breakthrough'], [(1, 'a2-a3'), (0, 'h7-h6'), (1, 'b2-b3')])
>>> record.nodes[1]["C"]
['a ] b']
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from engine import Game, GameError, find_game

from ..text import whole

MOVE_PROPERTIES = {"B": 0, "W": 1}
# The deepest nesting of variations read: far beyond any record's, short of a memory hog.
MAX_NESTING = 10_000
# SGF's number for a game (GM); games it does not number are written with their own name.
GAME_NUMBERS = {"loa": 9}


class SgfError(ValueError):
    """The text is not a well-formed SGF record: ``line`` (1-based) and ``reason`` say where
    and why; the message is ``line N: reason``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class SgfRecord:
    """One game tree's main line.

    ``root`` is the first node's properties (identifier -> list of values); ``nodes`` every
    node of the main line, root first; ``moves`` the main line's moves as (colour, text), colour
    0 for ``B`` and 1 for ``W``; ``move_lines`` the 1-based line of the file each move is on, so
    that an error about a move can name its place; ``line`` the line the tree starts on.
    """

    root: dict[str, list[str]]
    line: int = 1
    nodes: list[dict[str, list[str]]] = field(default_factory=list)
    moves: list[tuple[int, str]] = field(default_factory=list)
    move_lines: list[int] = field(default_factory=list)

    # The root as the referee writes it (:func:`referee.records.sgf_text`); read in one place.

    @property
    def game_name(self) -> str | None:
        """``GM``: the game's name (SGF's number turned into ours), ``None`` without one."""
        if "GM" not in self.root:
            return None
        named = self.root["GM"][0].strip()
        numbers = {str(number): name for name, number in GAME_NUMBERS.items()}
        return numbers.get(named, named)

    @property
    def size_texts(self) -> tuple[str, str] | None:
        """``SZ[N]`` or ``SZ[COLS:ROWS]`` as the texts (cols, rows), ``None`` without one."""
        if "SZ" not in self.root:
            return None
        cols, _, rows = self.root["SZ"][0].partition(":")
        return cols.strip(), (rows or cols).strip()

    @property
    def options(self) -> dict[str, str]:
        """The game options in the root comment ``GC[options: KEY=VALUE ...]``, as written."""
        comment = self.root.get("GC", [""])[0].strip()
        if not comment.lower().startswith("options:"):
            return {}
        return dict(word.partition("=")[::2] for word in comment[len("options:"):].split())


def read_sgf(text: str) -> SgfRecord:
    """The first game tree of an SGF collection (see :func:`read_collection`)."""
    return read_collection(text)[0]


def read_collection(text: str) -> list[SgfRecord]:
    """Every game tree of an SGF collection, each reduced to its main line; raises
    :class:`SgfError` for malformed text or a text without any game tree."""
    reader = _Reader(text)
    records = []
    reader.skip_space()
    while not reader.at_end():
        records.append(reader.game_tree())
        reader.skip_space()
    if not records:
        raise SgfError(1, "no SGF game tree (a record starts with '(;')")
    return records


class _Reader:
    """A cursor over the text, reading one game tree at a time."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.breaks = [place for place, char in enumerate(text) if char == "\n"]

    def at_end(self) -> bool:
        return self.at >= len(self.text)

    def line(self, at: int | None = None) -> int:
        return bisect.bisect_left(self.breaks, self.at if at is None else at) + 1

    def fail(self, reason: str, at: int | None = None) -> SgfError:
        return SgfError(self.line(at), reason)

    def skip_space(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def expect(self, char: str) -> None:
        self.skip_space()
        if self.at_end():
            raise self.fail(f"expected {char!r}, found the end of the text")
        if self.text[self.at] != char:
            raise self.fail(f"expected {char!r}, found {self.text[self.at]!r}")
        self.at += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.at] if self.at < len(self.text) else ""

    def game_tree(self) -> SgfRecord:
        """A whole game tree, '(' next, reduced to its main line."""
        self.skip_space()
        line = self.line()
        nodes = self._tree()
        record = SgfRecord(nodes[0][0], line)
        for properties, line in nodes:
            record.nodes.append(properties)
            moves = [name for name in properties if name in MOVE_PROPERTIES]
            if len(moves) > 1:
                raise SgfError(line, "a node holds moves for both colours")
            if moves:
                values = properties[moves[0]]
                if len(values) != 1:
                    raise SgfError(line, f"move {moves[0]} has {len(values)} values")
                record.moves.append((MOVE_PROPERTIES[moves[0]], values[0].strip() or "pass"))
                record.move_lines.append(line)
        return record

    def _tree(self) -> list[tuple[dict[str, list[str]], int]]:
        """``( node+ variation* )``: the main line's nodes (with their lines), that is the
        tree's own nodes followed by its first variation's main line; the other variations
        are read (they must be well formed) and dropped.

        Read with a stack of the open trees rather than recursion; each holds the list its
        nodes go to (the main line's own list for a first variation on the main line, a
        throw-away one elsewhere) and whether its first variation is still to come.
        """
        self.expect("(")
        main_line: list[tuple[dict[str, list[str]], int]] = []
        open_trees = [[main_line, True]]
        self._nodes(main_line)
        while open_trees:
            if self.peek() == "(":
                if len(open_trees) >= MAX_NESTING:
                    raise self.fail(f"variations nested deeper than {MAX_NESTING}")
                self.at += 1
                parent = open_trees[-1]
                nodes = parent[0] if parent[1] and parent[0] is not None else None
                parent[1] = False
                open_trees.append([nodes, True])
                self._nodes(nodes)
            else:
                self.expect(")")
                open_trees.pop()
        return main_line

    def _nodes(self, into: list | None) -> None:
        """The nodes of a tree whose '(' was just read, added to ``into`` (unless ``None``)."""
        if self.peek() != ";":
            raise self.fail("a game tree must start with a node (';')")
        while self.peek() == ";":
            self.at += 1
            node = self._node()
            if into is not None:
                into.append(node)

    def _node(self) -> tuple[dict[str, list[str]], int]:
        """The properties of the node whose ';' was just read, and its line (that of its move
        property if it has one, so that a record with one node a line names the move's line)."""
        line = self.line()
        properties: dict[str, list[str]] = {}
        while self.peek().isalpha():
            start = self.at
            while self.at < len(self.text) and self.text[self.at].isalpha():
                self.at += 1
            name = "".join(char for char in self.text[start:self.at] if char.isupper())
            if not name:
                raise self.fail(f"property name {self.text[start:self.at]!r} has no capital "
                                "letter", start)
            if name in properties:
                raise self.fail(f"property {name} twice in one node", start)
            if self.peek() != "[":
                raise self.fail(f"property {name} has no value")
            values = []
            while self.peek() == "[":
                values.append(self._value())
            properties[name] = values
            if name in MOVE_PROPERTIES:
                line = self.line(start)
        if self.peek() not in (";", "(", ")"):
            found = repr(self.peek()) if self.peek() else "the end of the text"
            raise self.fail(f"expected a property, a node or a bracket, found {found}")
        return properties, line

    def _value(self) -> str:
        """One ``[...]`` value with its escapes resolved; the '[' is next."""
        start = self.at
        self.at += 1
        chars = []
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "]":
                self.at += 1
                return "".join(chars)
            if char == "\\":
                self.at += 1
                if self.at < len(text):
                    escaped = text[self.at]
                    if escaped == "\r" and text.startswith("\n", self.at + 1):
                        self.at += 1  # a soft line break written \r\n
                    elif escaped not in "\r\n":
                        chars.append(escaped)
            else:
                chars.append(char)
            self.at += 1
        raise self.fail("a value '[' is never closed", start)


def game_of_record(record: SgfRecord) -> Game:
    """The game an SGF record's root describes: ``GM`` (a number SGF gives the game, or its
    name), ``SZ`` (``N`` or ``COLS:ROWS``; read only for a game whose size varies) and the
    options the referee writes in ``GC[options: KEY=VALUE ...]``."""
    if record.game_name is None:
        raise GameError("the record has no GM[] property naming its game")
    game_class = find_game(record.game_name)
    size = None
    if record.size_texts is not None and game_class.size_limits is not None:
        try:
            size = whole(record.size_texts[0]), whole(record.size_texts[1])
        except ValueError:
            raise GameError(f"SZ[{record.root['SZ'][0]}] is not a board size "
                            "(N or COLS:ROWS)") from None
    return game_class(record.options, size)
