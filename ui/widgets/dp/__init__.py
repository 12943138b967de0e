"""The differential-privacy pages' helpers: defaults taken from the chosen column."""
