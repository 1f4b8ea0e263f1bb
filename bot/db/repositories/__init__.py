"""Repositories: they speak SQLAlchemy inside and return domain objects outside."""
