"""wirespeed: network-device benchmark results as review articles and PDF test reports."""

__version__ = "0.1.0"
FORMAT_VERSION = 1
