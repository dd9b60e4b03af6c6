"""benchreport: the plots and README.md of `compact bench --report DIR` (see report.py).

data.py     the bench JSON, read and checked; the algorithm table; queries over the records
claims.py   the papers' claims: for each, its inputs, its verdict rule and its sentence
plots.py    the papers' figures drawn again (matplotlib)
readme.py   README.md: verdicts, thresholds, the reference table, plots, sweeps
report.py   the command line (python3 -m benchreport, or plot_bench.py)
"""
