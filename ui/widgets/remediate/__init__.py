"""The Remediate page's widgets: identifiers, hierarchies, steering, candidates, utility,
perturbation and the history."""
