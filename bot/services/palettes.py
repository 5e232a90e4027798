"""Which palette a picture is drawn in (render/palette.py): what only one person sees —
their cockpit previews, the lines of fire they ask for, the analyses they ask for — in
their own palette, else their server's; what everyone in a match thread sees in the
server's default (set by its admins), else the classic one."""

from __future__ import annotations

from render.palette import DEFAULT_PALETTE, PALETTES, palette_theme
from storage.palettes import PaletteRepo


async def person_theme(repo: PaletteRepo, user_id: int, guild_id: int | None) -> str:
    """The theme to draw with for ``user_id``, asking in ``guild_id``."""
    return palette_theme(await person_palette(repo, user_id, guild_id))


async def person_palette(repo: PaletteRepo, user_id: int, guild_id: int | None) -> str:
    """The palette ``user_id`` sees in ``guild_id``: their own, else their server's."""
    chosen = (await repo.chosen([user_id])).get(user_id)
    if chosen in PALETTES:
        return chosen
    found = await repo.server(guild_id) if guild_id is not None else None
    return found if found in PALETTES else DEFAULT_PALETTE


async def server_theme(repo: PaletteRepo, guild_id: int | None) -> str:
    """The theme of a server's thread boards."""
    chosen = await repo.server(guild_id) if guild_id is not None else None
    return palette_theme(chosen or DEFAULT_PALETTE)
