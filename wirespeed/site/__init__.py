"""The site: each set's site data for Hugo (tables, charts, diagrams, comparisons, trends, articles) and the Hugo build."""
