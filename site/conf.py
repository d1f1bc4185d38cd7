"""Sphinx configuration of the static site (``bash scripts/build_site.sh``; see ``ppalib/site.py``).

Copied into the staging folder ``output/site-src/`` beside the executed notebooks.  Nothing is executed at build
time and nothing is fetched: the theme is pinned in the ``site`` extra of ``pyproject.toml``, and no page loads a
script from the network (no widget or require.js loader; MathJax is not needed, the notebooks print no math).
"""
project = "ppalib"
author = "the ppalib authors"
copyright = "the ppalib authors (MIT licence)"

extensions = ["myst_nb"]
nb_execution_mode = "off"          # the notebooks come executed (python -m ppalib reproduce --preset quick)
nb_ipywidgets_js = {}              # no CDN loader for widgets: the executed copies hold static pictures only
nb_merge_streams = True            # one block for a cell's printed lines
nb_render_markdown_format = "myst"  # Markdown outputs (the report's tables) with tables and links to pages
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type"]  # e.g. a widget's state: shown as its text fallback

exclude_patterns = ["_build", "**.ipynb_checkpoints"]
html_theme = "sphinx_book_theme"
html_title = "ppalib: online learning in MCTS, reproduced"
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
}
html_static_path = ["_static"]
html_css_files = ["ppalib.css"]
html_last_updated_fmt = None
html_show_sourcelink = False
html_copy_source = True    # the download button offers each executed notebook
