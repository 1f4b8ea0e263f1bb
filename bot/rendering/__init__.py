"""What the bot shows, rendered from plain domain data: texts, pictures and files (no aiogram)."""
