#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""elec.py SUBCOMMAND ...: the VM scenarios' helpers, in elec_lib.py (see
its docstring for the subcommands). This file stays small: Python compiles
the script it runs at every start but takes an imported module's bytecode
from __pycache__, which tests/vm/run writes on the host before a boot."""

import os
import sys

# argparse asks gettext for every message it builds; with the guest's
# LANG=C.UTF-8 each lookup probes locale files over 9p (~0.3 s a run)
if not os.environ.get("LANGUAGE"):
    os.environ["LANGUAGE"] = "C"

import elec_lib  # noqa: E402

if __name__ == "__main__":
    sys.exit(elec_lib.main())
