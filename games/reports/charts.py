"""Server-side SVG charts: one source for the web page and the PDF, no JavaScript.

Coordinates are computed in integers on a fixed viewBox (no floats anywhere), so the same
report always renders byte-identical SVG.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from html import escape

WIDTH, HEIGHT = 960, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 200, 36, 40
#: a legend's name is cut to this many characters (the whole name is its tooltip): a longer
#: one ran past the chart's right edge and was clipped
LEGEND_CHARS = 16
#: deal-number steps of the x axis: round numbers, not 27, 54, 81 ...
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
#: more points than this and a line is drawn thin, so a long evening is not a solid smear
THIN_FROM = 120
#: the lines' colours: each at least 3:1 against the white page (WCAG 1.4.11), so a line can be
#: told from the background; the orange, pink, cyan and olive are darker than their usual shades
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#d95f02", "#8c564b", "#c2459f",
           "#108a96", "#7f7f7f", "#8f8f1a"]
#: past the palette's colours (a table seats up to 16) a line is dashed too, so that no two
#: lines, nor their legend keys, look alike
DASHES = ("", "7 4", "2 3")


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
    labels: Mapping[str, str] | None = None,
) -> str:
    """An SVG line chart: x is the index (0 = before the first deal), y the integer values.

    Every series gets a `<polyline data-series="name" data-values="...">` so tests and readers
    can check the plotted numbers exactly. ``closing``: the last point is the session's close,
    not a deal; it is labelled "close" under a dashed rule, and the `<svg>` says so in
    `data-last-point="close"`, so a reader need not count points to tell. ``labels``: what the
    legend calls each series (a player's display name, as the tables do; default its key).
    """
    labels = labels or {}
    points_n = max((len(v) for v in series.values()), default=0)
    values = [y for v in series.values() for y in v] or [0]
    ticks = _ticks(min(0, min(values)), max(values))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = max(points_n - 1, 1)
    stroke = 2 if points_n <= THIN_FROM else 1

    def x(i: int) -> int:
        return LEFT + i * plot_w // last

    def y(v: int) -> int:
        return TOP + (high - v) * plot_h // max(high - low, 1)

    marker = ' data-last-point="close"' if closing else ""
    finals = [(labels.get(name, name), vals[-1] if vals else 0) for name, vals in series.items()]
    out = [
        (f'<svg xmlns="http://www.w3.org/2000/svg" id="{escape(chart_id)}" class="chart" '
         f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" aria-label="{escape(title)}" '
         f'font-family="sans-serif" font-size="12"{marker}>'),
        f"<title>{escape(title)}</title>",
        # what a screen reader says beside the title: where each line ends
        "<desc>At the end: " + escape(", ".join(f"{name} {final:,}" for name, final in finals))
        + ".</desc>",
        f'<text x="{LEFT}" y="{TOP - 14}" font-size="15" font-weight="bold">{escape(title)}</text>',
    ]
    for t in ticks:
        out.append(f'<line x1="{LEFT}" y1="{y(t)}" x2="{LEFT + plot_w}" y2="{y(t)}" '
                   f'stroke="{"#555" if t == 0 else "#ddd"}" stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(t) + 4}" text-anchor="end">{t:,}</text>')
    for i, label in _x_labels(points_n, closing):
        out.append(f'<text x="{x(i)}" y="{TOP + plot_h + 16}" text-anchor="middle">{label}</text>')
    if closing and points_n:
        out.append(f'<line class="close" x1="{x(points_n - 1)}" y1="{TOP}" x2="{x(points_n - 1)}" '
                   f'y2="{TOP + plot_h}" stroke="#999" stroke-width="1" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{LEFT + plot_w // 2}" y="{HEIGHT - 4}" text-anchor="middle">'
               f"{escape(x_label)}</text>")
    out.append(f'<text x="14" y="{TOP + plot_h // 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {TOP + plot_h // 2})">{escape(y_label)}</text>')
    for k, ((name, vals), (label, final)) in enumerate(zip(series.items(), finals, strict=True)):
        colour, dash = line_look(k)
        pts = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(vals))
        data = ",".join(str(v) for v in vals)
        out.append(f'<polyline data-series="{escape(name)}" data-values="{data}" points="{pts}" '
                   f'fill="none" stroke="{colour}" stroke-width="{stroke}"{dash}/>')
        ly = TOP + 8 + k * 18
        lx = LEFT + plot_w + 16
        out.append(f'<g class="legend"><title>{escape(label)} ({final:,})</title>'
                   f'<line x1="{lx}" y1="{ly}" x2="{lx + 18}" y2="{ly}" stroke="{colour}" '
                   f'stroke-width="3"{dash}/><text x="{lx + 24}" y="{ly + 4}">'
                   f"{escape(legend_name(label))} ({final:,})</text></g>")
    out.append("</svg>")
    return "\n".join(out)


def line_look(k: int) -> tuple[str, str]:
    """The ``k``-th line's colour, and its dash pattern as an attribute ("" for a solid line)."""
    dash = DASHES[k // len(PALETTE) % len(DASHES)]
    return PALETTE[k % len(PALETTE)], f' stroke-dasharray="{dash}"' if dash else ""


def legend_name(name: str) -> str:
    """A name as the legend shows it: cut to ``LEGEND_CHARS`` with an ellipsis, and a
    right-to-left one isolated (FSI ... PDI) so that the count after it stays after it."""
    if len(name) > LEGEND_CHARS:
        name = name[:LEGEND_CHARS - 1].rstrip() + "\u2026"
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        name = f"\u2068{name}\u2069"
    return name


def _x_labels(points_n: int, closing: bool) -> list[tuple[int, str]]:
    """The x axis's labels: about a dozen deal numbers at a round step, and with ``closing``
    the last point as "close", any deal number within half a step of it left out so that the
    two do not overlap."""
    last = points_n - 1
    wanted = -(-max(last, 1) // 12)
    step = next((s for s in NICE_STEPS if s >= wanted), wanted)
    if not closing or points_n == 0:
        return [(i, str(i)) for i in range(0, points_n, step)]
    return [(i, str(i)) for i in range(0, last, step) if last - i > step // 2] + [(last, "close")]


def _closing_words(closing: bool) -> tuple[str, str]:
    """What a closed session's charts add to their title and x label."""
    if not closing:
        return "", "deal"
    return " and at the close", "deal, then the close (the end-of-session pool split)"


def chips_chart(chips_by_player: Mapping[str, Sequence[int]], *, closing: bool = False,
                names: Mapping[str, str] | None = None) -> str:
    """Each player's chips in hand after every deal (point 0: after the buy-in); ``closing``:
    a last point after the close's pool split, the chips the banker bought back. ``names``:
    each player's display name, which the legend shows (as the players table does)."""
    title, x_label = _closing_words(closing)
    return line_chart(f"Chips in hand after each deal{title}", chips_by_player,
                      chart_id="chips-chart", x_label=x_label, closing=closing, labels=names)


def pool_chart(pool_after: Sequence[int], *, closing: bool = False) -> str:
    """The pool after every deal (point 0: the pool the session started with); ``closing``: a
    last point after the close, the pool it left (0 once split)."""
    title, x_label = _closing_words(closing)
    return line_chart(f"Pool after each deal{title}", {"pool": pool_after},
                      chart_id="pool-chart", x_label=x_label, closing=closing)
