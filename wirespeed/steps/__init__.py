"""Build steps: step runner, analysis, site-data export, reports, site, build paths."""
