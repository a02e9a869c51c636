"""The one error of the capture engine: a file, a place in it and the rule it breaks."""

from __future__ import annotations

from wirespeed.problems import Problem


class CaptureError(Exception):
    """A capture that cannot be read; str() is one line: file: place: message [rule]."""

    def __init__(self, file: str, place: str, message: str, rule: str):
        self.problem = Problem(file, None, place, message, rule)
        super().__init__(str(self.problem))
