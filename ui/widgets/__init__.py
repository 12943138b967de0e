"""Widgets, grouped by the page that draws them; the targets editor serves Anonymity and
Remediate."""
