"""Presentation: table model, number style, table kinds, chart definitions and styles, headline figures."""
