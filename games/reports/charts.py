"""Server-side SVG charts: one source for the web page and the PDF, no JavaScript.

Coordinates are computed in integers on a fixed viewBox (no floats anywhere), so the same
report always renders byte-identical SVG.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

WIDTH, HEIGHT = 960, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 36, 40
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22"]


def _ticks(low: int, high: int, count: int = 5) -> list[int]:
    """Round-number ticks covering [low, high]."""
    span = max(high - low, 1)
    step = 1
    raw = -(-span // count)  # ceil
    magnitude = 1
    while magnitude * 10 <= raw:
        magnitude *= 10
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            step = factor * magnitude
            break
    first = (low // step) * step
    ticks = list(range(first, high + step, step))
    return ticks if len(ticks) > 1 else ticks + [ticks[-1] + step]


def line_chart(
    title: str,
    series: Mapping[str, Sequence[int]],
    *,
    x_label: str = "deal",
    y_label: str = "chips",
    chart_id: str = "chart",
    closing: bool = False,
) -> str:
    """An SVG line chart: x is the index (0 = before the first deal), y the integer values.

    Every series gets a `<polyline data-series="name" data-values="...">` so tests and readers
    can check the plotted numbers exactly. ``closing``: the last point is the session's close,
    not a deal; it is labelled "close" under a dashed rule, and the `<svg>` says so in
    `data-last-point="close"`, so a reader need not count points to tell.
    """
    points_n = max((len(v) for v in series.values()), default=0)
    values = [y for v in series.values() for y in v] or [0]
    ticks = _ticks(min(0, min(values)), max(values))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = max(points_n - 1, 1)

    def x(i: int) -> int:
        return LEFT + i * plot_w // last

    def y(v: int) -> int:
        return TOP + (high - v) * plot_h // max(high - low, 1)

    marker = ' data-last-point="close"' if closing else ""

    out = [
        (f'<svg xmlns="http://www.w3.org/2000/svg" id="{escape(chart_id)}" class="chart" '
         f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" aria-label="{escape(title)}" '
         f'font-family="sans-serif" font-size="12"{marker}>'),
        f"<title>{escape(title)}</title>",
        f'<text x="{LEFT}" y="{TOP - 14}" font-size="15" font-weight="bold">{escape(title)}</text>',
    ]
    for t in ticks:
        out.append(f'<line x1="{LEFT}" y1="{y(t)}" x2="{LEFT + plot_w}" y2="{y(t)}" '
                   f'stroke="{"#555" if t == 0 else "#ddd"}" stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(t) + 4}" text-anchor="end">{t}</text>')
    for i, label in _x_labels(points_n, closing):
        out.append(f'<text x="{x(i)}" y="{TOP + plot_h + 16}" text-anchor="middle">{label}</text>')
    if closing and points_n:
        out.append(f'<line class="close" x1="{x(points_n - 1)}" y1="{TOP}" x2="{x(points_n - 1)}" '
                   f'y2="{TOP + plot_h}" stroke="#999" stroke-width="1" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{LEFT + plot_w // 2}" y="{HEIGHT - 4}" text-anchor="middle">'
               f"{escape(x_label)}</text>")
    out.append(f'<text x="14" y="{TOP + plot_h // 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {TOP + plot_h // 2})">{escape(y_label)}</text>')
    for k, (name, vals) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        pts = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(vals))
        data = ",".join(str(v) for v in vals)
        out.append(f'<polyline data-series="{escape(name)}" data-values="{data}" points="{pts}" '
                   f'fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = TOP + 8 + k * 18
        lx = LEFT + plot_w + 16
        final = vals[-1] if vals else 0
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 18}" y2="{ly}" stroke="{colour}" '
                   'stroke-width="3"/>')
        out.append(f'<text x="{lx + 24}" y="{ly + 4}">{escape(name)} ({final})</text>')
    out.append("</svg>")
    return "\n".join(out)


def _x_labels(points_n: int, closing: bool) -> list[tuple[int, str]]:
    """The x axis's labels: about a dozen deal numbers, and with ``closing`` the last point as
    "close", any deal number within half a step of it left out so that the two do not overlap."""
    last = points_n - 1
    step = max(1, -(-max(last, 1) // 12))
    if not closing or points_n == 0:
        return [(i, str(i)) for i in range(0, points_n, step)]
    return [(i, str(i)) for i in range(0, last, step) if last - i > step // 2] + [(last, "close")]


def _closing_words(closing: bool) -> tuple[str, str]:
    """What a closed session's charts add to their title and x label."""
    if not closing:
        return "", "deal"
    return " and at the close", "deal, then the close (the end-of-session pool split)"


def chips_chart(chips_by_player: Mapping[str, Sequence[int]], *, closing: bool = False) -> str:
    """Each player's chips in hand after every deal (point 0: after the buy-in); ``closing``:
    a last point after the close's pool split, the chips the banker bought back."""
    title, x_label = _closing_words(closing)
    return line_chart(f"Chips in hand after each deal{title}", chips_by_player,
                      chart_id="chips-chart", x_label=x_label, closing=closing)


def pool_chart(pool_after: Sequence[int], *, closing: bool = False) -> str:
    """The pool after every deal (point 0: the pool the session started with); ``closing``: a
    last point after the close, the pool it left (0 once split)."""
    title, x_label = _closing_words(closing)
    return line_chart(f"Pool after each deal{title}", {"pool": pool_after},
                      chart_id="pool-chart", x_label=x_label, closing=closing)
