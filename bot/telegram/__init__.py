"""The Telegram side of the bot: direct replies within Telegram's limits and every press
answered (`replies`), long polling's guard against a second poller (`polling`), the
webhook's ledger of updates handled once (`update_ledger`) and the Bot API's answer models
kept (`response_models`). It imports neither `handlers` nor the composition root."""
