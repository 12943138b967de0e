"""Supply-chain checks: the offline dependency audit and its vendored advisory list."""
