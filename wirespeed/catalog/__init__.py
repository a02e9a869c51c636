"""The DuckDB catalog: every result set loaded once, with every derived figure computed once and exported."""
