"""Presentation: what pages and reports show, read from the catalog's exported columns."""
