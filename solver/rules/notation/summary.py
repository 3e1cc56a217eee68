"""The replay summary behind ``ora-solve replay``: a record replayed and its scores."""

from __future__ import annotations

from .importer import replay_record


def replay_summary(record: dict, profile: str = "rulebook") -> dict:
    """Replay a record and summarise it: ``{"finished", "round", "players": [{"color",
    "total", "goods", "economic", "dwelling"}, ...]}`` in seat order.

    Raises RecordError for a malformed record and NotationError for a rejected move.
    """
    st = replay_record(record, profile).state
    players = []
    for seat, sc in enumerate(st.score()):
        players.append({"color": st.g.owners[seat].colour, "total": int(sc.total),
                        "goods": int(sc.goods), "economic": int(sc.economic),
                        "dwelling": int(sc.dwelling)})
    return {"finished": st.is_terminal(), "round": int(st.round), "players": players}
