"""The analysis: the notebooks run per result set, headless, and what they write (tables and charts)."""
