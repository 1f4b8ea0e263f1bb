"""What getChat and getChatMember say of a chat and of the bot's place in it."""

from __future__ import annotations

from typing import Any

from harness.fake_telegram.state import ChatState


def chat_info(chat: ChatState) -> dict[str, Any]:
    """The full chat getChat answers (the fields aiogram's model requires included)."""
    return {
        **chat.as_api(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    }


def bot_membership(bot: dict[str, Any], chat: ChatState) -> dict[str, Any]:
    """What getChatMember says of the bot in a chat: its status, and an administrator's rights."""
    if chat.bot_status != "administrator":
        return {"status": chat.bot_status, "user": bot}
    rights = dict.fromkeys(
        (
            "can_be_edited",
            "is_anonymous",
            "can_restrict_members",
            "can_promote_members",
            "can_manage_video_chats",
            "can_post_stories",
            "can_edit_stories",
            "can_delete_stories",
            "can_send_welcome_messages",
        ),
        False,
    )
    rights.update(
        can_manage_chat=True,
        can_delete_messages=True,
        can_change_info=False,
        can_invite_users=True,
    )
    if chat.type == "channel":
        rights.update(can_post_messages=chat.can_post, can_edit_messages=chat.can_post)
    else:
        rights["can_pin_messages"] = True
    return {"status": "administrator", "user": bot, **rights}
