"""Date formats for languages Django has no formats for (FORMAT_MODULE_PATH)."""
