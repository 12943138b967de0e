"""The built-in demo: a seeded synthetic population and the guided story."""

from riskcore.demo.people import DEMO_REASONS, DEMO_ROLES, make_people

__all__ = ["DEMO_REASONS", "DEMO_ROLES", "make_people"]
