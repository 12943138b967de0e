"""The built-in demo: a seeded synthetic population and the guided story."""

from riskcore.demo.people import make_people

__all__ = ["make_people"]
