"""Presentation: table model, number style, table kinds, chart definitions, headline figures."""
