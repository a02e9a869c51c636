"""The build steps (analysis, site data, reports, site): each a declared step that writes atomically."""
