"""The PDF report: an article's or a generated report as a Pandoc document from the site data, fitted to the page and typeset with XeLaTeX."""
