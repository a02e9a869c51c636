"""The metric engine: pure functions over published figures (line rate, RFC 2544/2889/3918/5180, IMIX, ramp, units, qualifiers); no I/O."""
