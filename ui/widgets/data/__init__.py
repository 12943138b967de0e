"""The Data page's widgets: how an upload was read, a large file by path, the reading of roles."""
