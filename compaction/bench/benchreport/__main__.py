"""python3 -m benchreport DIR/bench.json [--out DIR] [--compact PATH]: see report.py."""
import sys

from .report import main

sys.exit(main())
