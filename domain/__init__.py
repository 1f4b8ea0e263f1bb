"""The tournament's rules and use cases: pure code, no aiogram, no SQLAlchemy, no clock."""
