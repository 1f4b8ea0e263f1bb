"""A player's rating history as an SVG chart, drawn on the server: the player's web page shows
it without JavaScript (the page's Content-Security-Policy allows no inline script, and an
inline SVG needs none).

The chart is a line through the rating after each rated game, from the starting rating, over a
grid of round ratings; the last value is marked. It scales to its container (a viewBox, no
fixed size), so a 375 px phone and a wide screen show the same picture. Everything written
into it is escaped: a title is a tournament's or a player's own text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

# A small drawing scaled up: its 13-unit type stays about 10 px on a 375 px phone (the page
# caps the chart's width, so a wide screen does not blow it up).
WIDTH = 420
HEIGHT = 230
# Room for the axes' labels: left (ratings), bottom (game numbers), top and right.
LEFT, BOTTOM, TOP, RIGHT = 44, 34, 12, 12
FONT_SIZE = 13
LINE_COLOUR = "#b3261e"
GRID_COLOUR = "#e2e2e2"
TEXT_COLOUR = "#555555"
# At most this many labelled ticks on each axis.
TICKS = 5


def _step(span: float, ticks: int = TICKS) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving at most `ticks` grid lines."""
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)  # pragma: no cover - the loop always returns


def _bounds(values: Sequence[float]) -> tuple[float, float, float]:
    """The ratings' axis: its low and high ends on round values, and the grid's step."""
    low, high = min(values), max(values)
    step = _step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        low, high = low - step, high + step
    return low, high, step


def _x_ticks(count: int) -> list[int]:
    """Which game numbers (0: the start) the bottom axis labels, evenly spread."""
    if count <= TICKS:
        return list(range(count + 1))
    step = math.ceil(count / TICKS)
    return [*range(0, count, step), count]


def rating_chart_svg(
    after: Sequence[float],
    *,
    title: str,
    description: str,
    start: float = 1000.0,
    games_label: str = "",
) -> str | None:
    """The chart of the ratings `after` each rated game (in order), starting from `start`;
    None when there is no game to draw. `title` and `description` name it for screen
    readers; `games_label` names the bottom axis."""
    if not after:
        return None
    values = [start, *after]
    low, high, step = _bounds(values)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + plot_w * index / (len(values) - 1)

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="rating-chart" role="img" aria-labelledby="chart-title chart-desc">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(description)}</desc>',
    ]
    parts += _grid(low, high, step, y)
    parts += _game_ticks(len(after), x, games_label)
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="{LINE_COLOUR}" '
        'stroke-width="2.2" stroke-linejoin="round" stroke-linecap="round"/>'
    )
    last_x, last_y = x(len(values) - 1), y(values[-1])
    parts.append(f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="4" fill="{LINE_COLOUR}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _grid(low: float, high: float, step: float, y: Callable[[float], float]) -> list[str]:
    """The horizontal grid lines with their ratings on the left."""
    lines = []
    count = round((high - low) / step)
    for index in range(count + 1):
        value = low + step * index
        at = y(value)
        lines.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{at:.1f}" y2="{at:.1f}" '
            f'stroke="{GRID_COLOUR}" stroke-width="1"/>'
        )
        lines.append(
            f'<text x="{LEFT - 6}" y="{at + 4:.1f}" text-anchor="end" font-size="{FONT_SIZE}" '
            f'fill="{TEXT_COLOUR}">{value:.0f}</text>'
        )
    return lines


def _game_ticks(count: int, x: Callable[[int], float], label: str) -> list[str]:
    """The game numbers along the bottom, and the axis' name at its right end."""
    ticks = []
    for index in _x_ticks(count):
        ticks.append(
            f'<text x="{x(index):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
            f'font-size="{FONT_SIZE}" fill="{TEXT_COLOUR}">{index}</text>'
        )
    if label:
        ticks.append(
            f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 2}" text-anchor="end" '
            f'font-size="{FONT_SIZE - 1}" fill="{TEXT_COLOUR}">{escape(label)}</text>'
        )
    return ticks
