"""Table kinds, one per module: each builds a ResultTable from catalog rows."""
