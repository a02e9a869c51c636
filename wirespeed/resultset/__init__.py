"""Result sets: one folder of inert files (result.toml + CSV + native tool output) per set.

The loader that puts a set together with its native files converted is wirespeed.catalog.load."""

from wirespeed.resultset.model import Cell, ResultSet, Row, TestSpec

__all__ = ["Cell", "ResultSet", "Row", "TestSpec"]
