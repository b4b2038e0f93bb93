"""Line charts as inline SVG text, for the report's figures over games (Elo, the SPRT's LLR).

Pure functions: numbers in, SVG text out, no drawing library. A value may be ``None``
(undefined, or not known yet) or infinite (the Elo of a perfect score, or of none): the line
has a gap at an undefined value and at an infinite one, which is drawn instead as an arrow
(class ``beyond``, its title ``+inf`` or ``-inf``) pointing out of the plot, in a strip beyond
the last tick that no number occupies; so a figure is never drawn as a number it is not, and
the scale is not stretched to nothing. A band's infinite end reaches into that strip.

>>> chart = line_chart([1, 2, 3], [0.0, 50.0, 25.0], band=([-80, -20, -30], [80, 120, 90]),
...                    levels=[(100.0, "upper")], title="Elo")
>>> chart.startswith("<svg") and chart.count("<polyline") == 1 and "upper" in chart
True
>>> chart = line_chart([1, 2, 3], [float("-inf"), -100.0, None], levels=[(0.0, "")])
>>> chart.count('class="beyond"'), chart.count("<polyline"), chart.count("<circle")
(1, 1, 0)
"""

from __future__ import annotations

import math
from html import escape
from typing import Any, Iterable, Mapping, Sequence

Number = float | int | None
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 26, 30


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round values covering ``[low, high]`` (steps of 1, 2 or 5 times a power
    of ten).

    >>> nice_ticks(-13, 87)
    [-20, 0, 20, 40, 60, 80, 100]
    >>> nice_ticks(0, 0.9)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    span = high - low or 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(factor * power for factor in (1, 2, 5, 10) if factor * power >= raw)
    start = math.floor(low / step)
    stop = math.ceil(high / step)
    if isinstance(step, int) or float(step).is_integer():
        step = int(step)
    return [round(index * step, 12) for index in range(start, stop + 1)]


def _finite(values: Sequence[Number]) -> list[float]:
    return [value for value in values if value is not None and math.isfinite(value)]


def _label(value: float) -> str:
    return f"{value:.10g}" if abs(value) >= 1 or value == 0 else f"{value:.2g}"


def line_chart(xs: Sequence[float], ys: Sequence[Number],
               band: tuple[Sequence[Number], Sequence[Number]] | None = None,
               levels: Sequence[tuple[float, str]] = (), title: str = "",
               width: int = 640, height: int = 240) -> str:
    """A chart of ``ys`` over ``xs``: the line, an optional shaded ``band`` (lower and upper
    values at each x, such as a 95 % interval) and horizontal ``levels`` with their labels
    (such as the SPRT's bounds). ``xs`` must rise."""
    lows, highs = band if band else ((), ())
    seen = _finite(ys) + _finite(lows) + _finite(highs) + [value for value, _ in levels]
    low, high = (min(seen), max(seen)) if seen else (-1.0, 1.0)
    if low == high:
        low, high = low - 1, high + 1
    ticks = nice_ticks(low, high)
    # A strip half a step beyond the last tick on a side where a value is infinite.
    strip = (ticks[1] - ticks[0]) / 2
    infinite = [value for value in [*ys, *lows, *highs] if value is not None
                and math.isinf(value)]
    y_low = ticks[0] - (strip if -math.inf in infinite else 0)
    y_high = ticks[-1] + (strip if math.inf in infinite else 0)
    x_low, x_high = (xs[0], xs[-1]) if xs else (0, 1)
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + plot_w * ((x - x_low) / (x_high - x_low) if x_high > x_low else 0.5)

    def py(y: float) -> float:
        y = min(max(y, y_low), y_high)
        return TOP + plot_h * (1 - (y - y_low) / (y_high - y_low))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} '
             f'{height}" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}">',
             f'<text class="title" x="{LEFT}" y="16">{escape(title)}</text>']
    for tick in ticks:
        y = py(tick)
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{width - RIGHT}" y1="{y:.1f}" '
                     f'y2="{y:.1f}"/><text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" '
                     f'text-anchor="end">{_label(tick)}</text>')
    for tick in nice_ticks(x_low, x_high, 6) if xs else ():
        if x_low <= tick <= x_high and float(tick).is_integer():  # x counts games
            parts.append(f'<text class="tick" x="{px(tick):.1f}" y="{height - 10}" '
                         f'text-anchor="middle">{_label(tick)}</text>')
    if band:
        upper = [(x, y) for x, y in zip(xs, highs) if y is not None]
        lower = [(x, y) for x, y in zip(xs, lows) if y is not None]
        if upper and lower:
            outline = upper + lower[::-1]
            points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in outline)
            parts.append(f'<polygon class="band" points="{points}"/>')
    for value, name in levels:
        y = py(value)
        parts.append(f'<line class="level" x1="{LEFT}" x2="{width - RIGHT}" y1="{y:.1f}" '
                     f'y2="{y:.1f}"/><text class="level-label" x="{width - RIGHT - 4}" '
                     f'y="{y - 4:.1f}" text-anchor="end">{escape(name)}</text>')
    for segment in _segments(xs, ys):
        points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in segment)
        parts.append(f'<polyline class="line" points="{points}"/>')
    for x, y in zip(xs, ys):
        if y is not None and math.isinf(y):
            parts.append(_arrow(px(x), py(y), y > 0))
    if ys and ys[-1] is not None and math.isfinite(ys[-1]):
        parts.append(f'<circle class="last" cx="{px(xs[-1]):.1f}" cy="{py(ys[-1]):.1f}" r="3"/>')
    parts.append("</svg>")
    return "".join(parts)


def _segments(xs: Sequence[float], ys: Sequence[Number]) -> list[list[tuple[float, float]]]:
    """The runs of consecutive finite points: the line's pieces between its gaps.

    >>> _segments([1, 2, 3, 4], [1.0, None, 2.0, 3.0])
    [[(1, 1.0)], [(3, 2.0), (4, 3.0)]]
    """
    segments: list[list[tuple[float, float]]] = [[]]
    for x, y in zip(xs, ys):
        if y is None or not math.isfinite(y):
            segments.append([])
        else:
            segments[-1].append((x, y))
    return [segment for segment in segments if segment]


def _arrow(x: float, y: float, up: bool) -> str:
    """An arrow at ``(x, y)`` on the edge of the plot, pointing out of it: an infinite value."""
    tip, base = (y - 5, y + 3) if up else (y + 5, y - 3)
    return (f'<path class="beyond" d="M{x:.1f},{tip:.1f} L{x - 4:.1f},{base:.1f} '
            f'L{x + 4:.1f},{base:.1f} Z"><title>{"+inf" if up else "-inf"}</title></path>')


class Sample:
    """At most about ``limit`` of a run's figures after each game, spread evenly over the run,
    and always the last: what a chart of a long run draws (a chart is a few hundred pixels
    wide), kept at a cost per game that does not grow with the run. Points are dicts whose
    ``games`` count 1, 2, 3...; a point is kept when ``games`` is a multiple of the stride,
    which doubles (dropping every other point kept) whenever more than ``limit`` are kept.

    >>> sample = Sample(limit=4)
    >>> sample.extend({"games": games} for games in range(1, 12))
    >>> [point["games"] for point in sample.points()]
    [4, 8, 11]
    """

    def __init__(self, limit: int = 500) -> None:
        self.limit = limit
        self.stride = 1
        self.kept: list[Mapping[str, Any]] = []
        self.last: Mapping[str, Any] | None = None

    def add(self, point: Mapping[str, Any]) -> None:
        self.last = point
        if point["games"] % self.stride == 0:
            self.kept.append(point)
            if len(self.kept) > self.limit:
                self.stride *= 2
                self.kept = [kept for kept in self.kept if kept["games"] % self.stride == 0]

    def extend(self, points: Iterable[Mapping[str, Any]]) -> None:
        for point in points:
            self.add(point)

    def points(self) -> list[Mapping[str, Any]]:
        """The points kept, and the last one."""
        if self.last is None or (self.kept and self.kept[-1] is self.last):
            return list(self.kept)
        return [*self.kept, self.last]
