"""The Report page's widgets: the Sign control."""
