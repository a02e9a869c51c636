"""Presentation: the table model, the one number rule, table kinds, chart definitions and headline figures, read from catalog rows."""
