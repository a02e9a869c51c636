"""Infrastructure at the edges: atomic writes, code hashes, packaged tools, interrupts, the browser, publishing, CSV safety, reproducible bytes and Hugo runs."""
