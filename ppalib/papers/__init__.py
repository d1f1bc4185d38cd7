"""One module per reproduced paper: its presets, its experiment grid, and its tables and figures."""
