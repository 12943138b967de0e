"""The Anonymity page's widgets: the Context step."""
