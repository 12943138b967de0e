"""De-identification: generalization and suppression (masking, Safe Harbor, lattice to come)."""
