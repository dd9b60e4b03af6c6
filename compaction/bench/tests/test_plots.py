"""Every plot of the report drawn from the fixture: in each panel, each series has one legend
entry and a colour and marker pair of its own (no two series look alike)."""
import pytest

from benchreport import claims, plots
from benchreport.data import Data

plt = pytest.importorskip("matplotlib.pyplot")


def series(ax):
    """(label, colour, marker) of each labelled line of a panel."""
    out = []
    for line in ax.get_lines():
        label = line.get_label()
        if label.startswith("_"):
            continue
        color = line.get_color()
        out.append((label, color if isinstance(color, str) else tuple(color), line.get_marker()))
    return out


def test_every_series_once_and_distinct(doc, tmp_path, monkeypatch):
    checked = []

    def check(fig, out, name):
        for ax in fig.axes:
            lines = series(ax)
            labels = [l for l, _, _ in lines]
            assert len(labels) == len(set(labels)), "%s: a series drawn twice: %s" % (name, labels)
            looks = [(c, m) for _, c, m in lines if m not in ("", "None", None)]
            assert len(looks) == len(set(looks)), "%s: two series share colour and marker" % name
            legend = ax.get_legend()
            if legend:
                texts = [t.get_text() for t in legend.get_texts()]
                assert len(texts) == len(set(texts)), "%s: a legend entry twice: %s" % (name,
                                                                                         texts)
        checked.append(name)
        plt.close(fig)
        return name

    monkeypatch.setattr(plots, "save", check)
    d = Data(doc)
    _, by = claims.evaluate(d)
    plots.make_plots(d, str(tmp_path), by)
    assert "density_all.png" in checked
