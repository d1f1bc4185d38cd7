# Jupyter server configuration of this repository: `jupyter lab --config=jupyter_server_config.py` (README).
# Source notebooks (notebooks/*.ipynb) are saved without outputs: see ppalib/notebook_hygiene.py.
import os
import sys

# the hook is imported from this checkout, whichever environment runs the server
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

c = get_config()  # noqa: F821 (defined by the Jupyter application that loads this file)
c.ContentsManager.pre_save_hook = "ppalib.notebook_hygiene.clean_for_saving"
