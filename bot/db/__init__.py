"""Storage: SQLAlchemy models, repositories that return domain objects, the unit of work."""
