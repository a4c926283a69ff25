"""``python -m eqsat``: the console script (``eqsat.entry``)."""

import sys

from eqsat.entry import main

sys.exit(main())
