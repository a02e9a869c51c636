"""Collectors: run traffic generators on real (or emulated) devices and write new result sets."""
