"""The score chart's hand labels: as many as fit side by side, none past the right edge."""

from __future__ import annotations

from itertools import pairwise

from tournament.charts import TICK_GAP, score_chart, text_width


def _marks(labels: list[str]):
    series = [[25000 + 1000 * i, 25000 - 1000 * i] for i in range(len(labels))]
    chart = score_chart(["a", "b"], 25000, series, labels)
    return chart, chart.labels


def test_labels_never_overlap_nor_run_past_the_edge_in_either_language():
    english = [f"E{k}-0" for k in range(1, 5)] + [f"S{k}-0" for k in range(1, 5)] + ["S4-1"]
    japanese = [f"{w}{k}局 0本場" for w in "東南" for k in range(1, 5)] + ["南4局 1本場"]
    for labels in (english, japanese):
        chart, marks = _marks(labels)
        assert marks and marks[0][1] == labels[0]
        for (x1, a), (x2, b) in pairwise(marks):
            assert x2 - x1 >= (text_width(a) + text_width(b)) / 2 + TICK_GAP / 2, (a, b)
        assert all(x + text_width(label) / 2 <= chart.width for x, label in marks)
    assert len(_marks(english)[1]) > len(_marks(japanese)[1])  # short labels: more of them
