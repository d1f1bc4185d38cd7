"""The effect of testing grown cells by their anytime-valid sequence: the claims of notebooks 01 (Table 1) and 02 (at
10,000 playouts) on the committed stores, with the anytime tests for cells grown until decided (as since 32a660b)
and with fixed-sample tests on every cell (as before), raw and after Holm; each claim whose verdict differs.

    python scripts/anytime_effect.py
"""
import ppalib.report as report
from ppalib import papers
from ppalib.papers import ppa2015, ppaf2016

def claims_of(name):
    paper = papers.paper_module(next(stem for stem, module in papers.NOTEBOOKS.items() if module == name))
    setup = papers.prepare(paper, "quick")
    frame = papers.run_until_decided(paper, setup, "serial", progress=False)
    if name == "ppa2015":
        long = ppa2015.table1(frame)
        return ppa2015.claims(long)
    long = ppaf2016.tables(frame)
    return ppaf2016.claims(long, playouts=10000)

for name in ("ppa2015", "ppaf2016"):
    now = claims_of(name)
    real = report.is_grown
    report.is_grown = lambda row, column="until_decided": False
    before = claims_of(name)
    report.is_grown = real
    print(name, "raw now", now["verdict"].value_counts().to_dict(), "| fixed-sample", before["verdict"].value_counts().to_dict())
    print(name, "Holm now", now["verdict (Holm)"].value_counts().to_dict(), "| fixed-sample", before["verdict (Holm)"].value_counts().to_dict())
    diff = now["verdict"] != before["verdict"]
    for (_, a), (_, b) in zip(now[diff].iterrows(), before[diff].iterrows()):
        print("   ", a.get("claim"), a.get("cell", a.get("game")), "now", a["verdict"], f"p={a['p']:.3g}", "| fixed", b["verdict"], f"p={b['p']:.3g}")
