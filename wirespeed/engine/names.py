"""A maker's thing named once: "Cisco Nexus 9516", "Spirent TestCenter" (not "Spirent Spirent TestCenter"). Here, below
the catalog, so that the catalog stores the instrument's name as the pages print it (presentation/devicename.py)."""

from __future__ import annotations


def full(vendor: str, model: str) -> str:
    """'Cisco Nexus 9516'; a model (or product) that already starts with its vendor is not prefixed twice."""
    vendor, model = str(vendor or "").strip(), str(model or "").strip()
    if not vendor or model.lower().startswith(vendor.lower()):
        return model or vendor
    return f"{vendor} {model}"
