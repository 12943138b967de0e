"""De-identification: hierarchies, full-domain generalization with suppression, the
least-loss lattice search, loss metrics and re-appliable recipes (masking and Safe Harbor
beside them)."""
