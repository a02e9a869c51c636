"""Packet captures (pcap, pcapng) to frame counts, rates, latency, loss and reordering.

reader: file formats to per-frame arrays; decode: Ethernet/VLAN/IP/UDP fields and a match key;
matching: frames of two capture points paired by key; metrics: the figures; histogram: HDR
percentiles. Everything here is pure except reader.open_capture (mmap of one file).
"""
