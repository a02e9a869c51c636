"""Throughput searches (RFC 2544 binary search, MLRsearch-style NDR/PDR) over any TrafficGenerator."""
