"""aiogram routers, one per screen family: they parse updates and call use cases."""
