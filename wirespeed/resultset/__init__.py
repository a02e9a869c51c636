"""Result sets: one folder of inert files (result.toml + CSV + native tool output) per set."""

from wirespeed.resultset.load import load, load_many
from wirespeed.resultset.model import Cell, ResultSet, Row, TestSpec

__all__ = ["Cell", "ResultSet", "Row", "TestSpec", "load", "load_many"]
