"""The app's infrastructure: session state and keys, cached wrappers of riskcore, the
session's profile, safe text, labels, tables, memory, identity and the work kept for a reload."""
